import { fileURLToPath } from 'node:url';

export const CONSUMER = 'payment-qr-sdk';
export const PROVIDER = 'payment-qr-service';
/** The SDK's pact, written by the consumer tests and kept in git, so that a clone can verify a deployment against it. */
export const PACTS_DIR = fileURLToPath(new URL('../pacts', import.meta.url));
export const PACT_FILE = `${PACTS_DIR}/${CONSUMER}-${PROVIDER}.json`;
