import { PactV4 } from '@pact-foundation/pact';
import { CONSUMER, PACTS_DIR, PROVIDER } from '../../src/pact-file.js';

export { CONSUMER, PACT_FILE, PACTS_DIR, PROVIDER } from '../../src/pact-file.js';

/** Every consumer test file adds its interactions to the one pact between the SDK and the service. */
export const newPact = (): PactV4 => new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir: PACTS_DIR, logLevel: 'warn' });

/** The example key the SDK is built with; the provider swaps in the key its state created (see `authorized`). */
export const EXAMPLE_API_KEY = 'sk_test_conformance_example_key';
