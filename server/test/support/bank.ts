import { parse } from 'promptparse';
import {
  callbackUrlOf,
  LOCAL_BANK,
  scbServiceEnv,
  startBankSimulator,
  type BankSimulator,
  type Knobs,
  type SimulatorOptions,
} from '../../../scripts/bank-simulator/simulator.js';
import type { Clock } from '../../src/ports/clock.js';
import { apiClient, type ApiClient } from './http.js';
import { startTestServer, type TestServer } from './test-server.js';

export const bankSettings = LOCAL_BANK;

/** The service's settings for BANK=scb against a simulator. Reconciliation waits an hour unless a test says otherwise. */
export const scbEnv = (bank: BankSimulator, extra: Record<string, string> = {}): Record<string, string> => ({
  ...scbServiceEnv(bank.url, 3_600_000),
  ...extra,
});

export { callbackUrlOf };

export interface LiveBank {
  bank: BankSimulator;
  server: TestServer;
  /** A live merchant's client. */
  api: ApiClient;
  /** A live QR code: its payment id and payload. */
  liveQr(amount?: number, body?: Record<string, unknown>): Promise<{ paymentId: string; qrData: string; ref1: string }>;
  stop(): Promise<void>;
}

/** A server with BANK=scb, an SCB simulator as its bank (confirmations resent 100 ms apart), and a live merchant. */
export async function startLiveBank(
  options: { clock?: Clock; env?: Record<string, string>; knobs?: Partial<Knobs>; retryDelayMs?: number; simulator?: Partial<SimulatorOptions> } = {},
): Promise<LiveBank> {
  const bank = await startBankSimulator({ ...bankSettings, retryDelayMs: options.retryDelayMs ?? 100, knobs: options.knobs, ...options.simulator });
  const server = await startTestServer({ clock: options.clock, env: scbEnv(bank, options.env) });
  bank.setCallbackUrl(callbackUrlOf(server.url));
  const api = apiClient(server.url, await server.merchant({ mode: 'live' }));
  return {
    bank,
    server,
    api,
    async liveQr(amount = 15000, body = {}) {
      const res = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB', ...body });
      if (res.status !== 200) throw new Error(`live QR code: ${res.status} ${res.text}`);
      const qrData = res.body.qr_data as string;
      return { paymentId: res.body.payment_id, qrData, ref1: parse(qrData)!.getTagValue('30', '02')! };
    },
    async stop() {
      await bank.stop();
      await server.stop();
    },
  };
}
