import { afterAll } from 'vitest';
import { idempotencyGroup } from '../../src/groups/idempotency.js';
import { startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

const service = await startService();
afterAll(() => service.stop());

testGroup(idempotencyGroup, service.target);
