import { afterAll } from 'vitest';
import { requestIdGroup } from '../../src/groups/request-id.js';
import { startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

const service = await startService();
afterAll(() => service.stop());

testGroup(requestIdGroup, service.target);
