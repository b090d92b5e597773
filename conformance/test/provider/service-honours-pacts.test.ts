import { afterAll } from 'vitest';
import { pactGroup } from '../../src/groups/pact.js';
import { startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

// No dispatcher: a delivery stays as written. The operator makes a merchant for each interaction.
const service = await startService();
afterAll(() => service.stop());

testGroup(pactGroup, service.target);
