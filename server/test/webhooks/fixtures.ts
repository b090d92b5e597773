import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import type { ApiClient } from '../support/http.js';
import type { Answer, Receiver } from '../support/receiver.js';

/**
 * Dispatcher on, loopback receivers allowed, and a retry schedule short enough for tests: 4 attempts in all. The
 * time-out is long: a receiver in the test answers at once unless told to hang, but on a loaded machine "at once" can
 * take seconds, and a shorter time-out there turned answered deliveries into failed ones.
 */
export const webhookEnv = {
  WEBHOOK_DISPATCHER: 'on',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms',
  WEBHOOK_TIMEOUT_MS: '10000',
};

export interface Subscription {
  webhookId: string;
  secret: string;
  url: string;
}

/** Registers `receiver`'s `path` and teaches the receiver the secret, read back through GET .../secret. */
export async function subscribe(api: ApiClient, receiver: Receiver, path: string, events: string[], answer?: Answer): Promise<Subscription> {
  const url = receiver.endpoint(path, { answer });
  const created = await api.post('/Thai/v1/webhooks', { url, events });
  expect(created.status, created.text).toBe(200);
  const secret = await api.get(`/Thai/v1/webhooks/${created.body.webhook_id}/secret`);
  expect(secret.status).toBe(200);
  receiver.verifyWith(path, secret.body.secret);
  return { webhookId: created.body.webhook_id, secret: secret.body.secret, url };
}

export async function newPayment(api: ApiClient, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/Thai/v1/qr-codes', { amount: 25000, currency: 'THB', reference: 'ORDER-42', ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body.payment_id as string;
}

export async function deliveriesOf(api: ApiClient, webhookId: string): Promise<any[]> {
  const res = await api.get(`/Thai/v1/webhooks/${webhookId}/deliveries?limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.deliveries;
}

/** A database that outlives one server: a file data directory for PGlite, a scratch database on PostgreSQL. */
export async function durableDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'pqr-webhooks-'));
    return { env: { DATA_DIR: join(dir, 'pglite') }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const name = `pqr_webhooks_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.toString() }, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
