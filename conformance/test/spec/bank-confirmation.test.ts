import { afterAll } from 'vitest';
import { bankGroup } from '../../src/groups/bank.js';
import { startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

// BANK=scb with an SCB simulator that pays QR payloads and sends no confirmation by itself.
const service = await startService({ bank: true });
afterAll(() => service.stop());

testGroup(bankGroup, service.target);
