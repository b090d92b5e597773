import { afterAll } from 'vitest';
import { errorsGroup } from '../../src/groups/errors.js';
import { startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

// BANK=scb, so the bank callback's own errors are driven too.
const service = await startService({ bank: true });
afterAll(() => service.stop());

testGroup(errorsGroup, service.target);
