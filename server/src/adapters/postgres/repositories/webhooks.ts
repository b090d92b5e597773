import type { EventKind } from '../../../domain/events.js';
import type { Webhook } from '../../../domain/webhook.js';
import type { WebhookRepository } from '../../../ports/repositories.js';
import { definedOnly, pageOf, insertNow, type Insert, type Db } from './query.js';

interface WebhookRow {
  id: string;
  merchant_id: string;
  url: string;
  events: EventKind[];
  secret: string;
  status: Webhook['status'];
  created_at: Date;
}

interface EarlierSecretRow {
  webhook_id: string;
  secret: string;
  retired_at: Date;
  expires_at: Date;
}

// The secret is never selected into a Webhook record.
const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  merchantId: row.merchant_id,
  url: row.url,
  events: row.events,
  status: row.status,
  createdAt: row.created_at,
});

export const webhookRepository = (db: Db, insert: Insert = insertNow(db)): WebhookRepository => {
  const live = () => db<WebhookRow>('webhooks').whereNull('deleted_at');
  return {
    async countForRegistration(merchantId) {
      // The merchant's row is the lock; NO KEY leaves the foreign-key checks of other tables free to pass.
      await db.raw('SELECT 1 FROM merchants WHERE id = ? FOR NO KEY UPDATE', [merchantId]);
      const row = await live().where({ merchant_id: merchantId }).count<{ n: string | number }[]>({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async insert(w, secret) {
      await insert('webhooks', {
        id: w.id,
        merchant_id: w.merchantId,
        url: w.url,
        events: JSON.stringify(w.events),
        secret,
        status: w.status,
        created_at: w.createdAt,
      });
    },
    async update(merchantId, id, changes) {
      const [row] = await live()
        .where({ id, merchant_id: merchantId })
        .update(definedOnly({ url: changes.url, events: changes.events && JSON.stringify(changes.events), status: changes.status }), '*');
      if (!row) return null;
      if (changes.status === 'disabled') await retirePendingDeliveries(db, id, 'The webhook was disabled before this delivery succeeded.');
      return toWebhook(row);
    },
    async secretsForRotation(merchantId, id) {
      const row = await live().where({ id, merchant_id: merchantId }).forUpdate().first('secret');
      if (!row) return null;
      const earlier = await db<EarlierSecretRow>('webhook_earlier_secrets').where({ webhook_id: id }).orderBy('retired_at', 'desc');
      return { secret: row.secret, earlier: earlier.map((e) => ({ secret: e.secret, retiredAt: e.retired_at, expiresAt: e.expires_at })) };
    },
    async replaceSecrets(id, secret, earlier) {
      await db('webhooks').where({ id }).update({ secret });
      await db('webhook_earlier_secrets').where({ webhook_id: id }).delete();
      if (earlier.length > 0) {
        await db('webhook_earlier_secrets').insert(
          earlier.map((e) => ({ webhook_id: id, secret: e.secret, retired_at: e.retiredAt, expires_at: e.expiresAt })),
        );
      }
    },
    async forgetExpiredSecrets(now) {
      return db('webhook_earlier_secrets').where('expires_at', '<=', now).delete();
    },
    async findById(merchantId, id) {
      const row = await live().where({ id, merchant_id: merchantId }).first();
      return row ? toWebhook(row) : null;
    },
    async list(merchantId, page) {
      return pageOf(db, 'webhooks', live().where({ merchant_id: merchantId }), page, toWebhook);
    },
    async secretOf(merchantId, id) {
      const row = await live().where({ id, merchant_id: merchantId }).first('secret');
      return row?.secret ?? null;
    },
    async delete(merchantId, id) {
      const changed = await db('webhooks').whereNull('deleted_at').where({ id, merchant_id: merchantId }).update({ deleted_at: new Date() });
      if (changed > 0) await retirePendingDeliveries(db, id, 'The webhook was deleted before this delivery succeeded.');
      return changed > 0;
    },
    async disable(id) {
      await db('webhooks').where({ id }).update({ status: 'disabled' });
      await retirePendingDeliveries(db, id, 'The webhook was disabled before this delivery succeeded.');
    },
  };
};

/** A webhook that receives nothing more leaves no delivery pending: what was still owed is marked failed. */
export async function retirePendingDeliveries(db: Db, webhookId: string, reason: string): Promise<void> {
  await db('webhook_deliveries').where({ webhook_id: webhookId, status: 'pending' }).update({ status: 'failed', next_attempt_at: null, last_error: reason });
}
