/**
 * `npm run bank-simulator`: the SCB-shaped bank for local development (see README, "Going live").
 * Settings: BANK_SIMULATOR_PORT (4100), CALLBACK_URL, SCB_API_KEY, SCB_API_SECRET, SCB_BILLER_ID (same values as the
 * service's), and the fault knobs BANK_SIMULATOR_DROP_RATE, BANK_SIMULATOR_DUPLICATE_RATE, BANK_SIMULATOR_DELAY_MS,
 * BANK_SIMULATOR_RETRY_DELAY_MS (12000, as SCB).
 */
import { LOCAL_BANK, startBankSimulator } from './simulator.js';

function rate(name: string): number {
  const value = Number(process.env[name] ?? 0);
  if (!(value >= 0 && value <= 1)) throw new Error(`${name} must be a number from 0 to 1`);
  return value;
}

const env = process.env;
const port = Number(env.BANK_SIMULATOR_PORT ?? 4100);
const callbackUrl = env.CALLBACK_URL ?? `http://127.0.0.1:3000/bank/scb/confirmations/${env.SCB_CALLBACK_TOKEN ?? LOCAL_BANK.callbackToken}`;
const bank = await startBankSimulator({
  port,
  apiKey: env.SCB_API_KEY ?? LOCAL_BANK.apiKey,
  apiSecret: env.SCB_API_SECRET ?? LOCAL_BANK.apiSecret,
  billerId: env.SCB_BILLER_ID ?? LOCAL_BANK.billerId,
  callbackUrl,
  retryDelayMs: Number(env.BANK_SIMULATOR_RETRY_DELAY_MS ?? 12_000),
  knobs: {
    dropRate: rate('BANK_SIMULATOR_DROP_RATE'),
    duplicateRate: rate('BANK_SIMULATOR_DUPLICATE_RATE'),
    delayMs: Number(env.BANK_SIMULATOR_DELAY_MS ?? 0),
  },
});
console.log(
  [
    `SCB bank simulator on ${bank.url} (token: POST /v1/oauth/token, inquiry: GET /v1/payment/billpayment/inquiry, slips: GET /v1/payment/billpayment/transactions/{transRef})`,
    `  confirmations go to ${callbackUrl.replace(/[^/]+$/, '<SCB_CALLBACK_TOKEN>')}`,
    `  pay a live QR code:  curl -s -X POST ${bank.url}/simulate/pay -H 'Content-Type: application/json' -d '{"qr_data": "<qr_data>"}'   (answers the slip's payload too)`,
    `  faults:              curl -s -X POST ${bank.url}/simulate/knobs -d '{"dropRate": 0.1, "duplicateRate": 0.1, "delayMs": 0, "inquiryDown": false}'`,
  ].join('\n'),
);
const shutdown = () => void bank.stop().finally(() => process.exit(0));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
