import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLiveBank, type LiveBank } from '../support/bank.js';

let live: LiveBank;
beforeAll(async () => {
  // Tokens that live 10 s: the service renews one halfway through its life, before the bank would refuse it.
  live = await startLiveBank({ simulator: { tokenLifetimeSeconds: 10 } });
});
afterAll(async () => {
  await live?.stop();
});

async function payOne(): Promise<string> {
  const { paymentId, qrData } = await live.liveQr(15000);
  live.bank.pay({ qr_data: qrData });
  await live.bank.callbacksSettled();
  return (await live.api.get(`/Thai/v1/payments/${paymentId}`)).body.status;
}

it('reuses the bank token while it is fresh and renews it before it expires', async () => {
  for (let i = 0; i < 3; i++) expect(await payOne()).toBe('succeeded');
  expect(live.bank.tokensIssued).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 5_200));
  expect(await payOne()).toBe('succeeded');
  expect(live.bank.tokensIssued).toBe(2);
  expect(live.bank.callbackAttempts.filter((a) => a.status === 200)).toHaveLength(4);
});
