import { afterAll } from 'vitest';
import { generatedGroup } from '../../src/groups/generated.js';
import { startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

const service = await startService();
afterAll(() => service.stop());

// CONFORMANCE_SEED explores other requests (the kit's --seed); a failure names its seed.
testGroup(generatedGroup, service.target, { seed: process.env.CONFORMANCE_SEED ? Number(process.env.CONFORMANCE_SEED) : undefined });
