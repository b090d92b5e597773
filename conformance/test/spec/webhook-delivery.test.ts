import { afterAll } from 'vitest';
import { webhooksGroup } from '../../src/groups/webhooks.js';
import { startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

// The dispatcher runs, and the kit's receiver listens on loopback (--receiver-host 127.0.0.1).
const service = await startService({ dispatcher: true });
afterAll(() => service.stop());

testGroup(webhooksGroup, service.target);
