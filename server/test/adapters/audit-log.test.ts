import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnitOfWork } from '../../src/adapters/postgres/unit-of-work.js';
import type { AuditEntry } from '../../src/domain/audit.js';
import { openFreshDatabase, type OpenedDatabase } from '../support/databases.js';

const entry = (id: string, merchantId: string, at: string): AuditEntry => ({
  id,
  merchantId,
  context: { actor: { kind: 'api_key', keyId: 'key_1', last4: 'ab12' }, channel: 'api', clientAddress: '127.0.0.1' },
  action: 'refund_created',
  subjectId: 'rfd_1',
  details: { amount: 5000, reason: 'damaged' },
  createdAt: new Date(at),
});

describe('the audit log', () => {
  let opened: OpenedDatabase;
  beforeAll(async () => {
    opened = await openFreshDatabase();
  });
  afterAll(() => opened.close());

  it("lists a merchant's entries newest first, as they were written, and no other merchant's", async () => {
    const uow = createUnitOfWork(opened.db.knex);
    await uow.run(async (tx) => {
      await tx.audit.record(entry('aud_list_1', 'mch_list', '2026-11-01T00:00:00Z'));
      await tx.audit.record(entry('aud_list_2', 'mch_list', '2026-11-02T00:00:00Z'));
      await tx.audit.record(entry('aud_list_3', 'mch_other', '2026-11-03T00:00:00Z'));
    });
    const page = await uow.repos.audit.list('mch_list', {}, { limit: 10, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.items).toEqual([entry('aud_list_2', 'mch_list', '2026-11-02T00:00:00Z'), entry('aud_list_1', 'mch_list', '2026-11-01T00:00:00Z')]);
  });

  it('is written with the transaction it belongs to: a rolled-back action leaves no entry', async () => {
    const uow = createUnitOfWork(opened.db.knex);
    await expect(
      uow.run(async (tx) => {
        await tx.audit.record(entry('aud_rolled_back', 'mch_rollback', '2026-11-01T00:00:00Z'));
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect((await uow.repos.audit.list('mch_rollback', {}, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it('refuses any change or deletion of an entry, even in SQL', async () => {
    const { knex } = opened.db;
    await createUnitOfWork(knex).run((tx) => tx.audit.record(entry('aud_frozen', 'mch_frozen', '2026-11-01T00:00:00Z')));
    await expect(knex('audit_entries').where({ id: 'aud_frozen' }).update({ action: 'sign_in' })).rejects.toThrow(/never changed or deleted/);
    await expect(knex('audit_entries').where({ id: 'aud_frozen' }).delete()).rejects.toThrow(/never changed or deleted/);
    await expect(knex.raw('TRUNCATE audit_entries')).rejects.toThrow(/never changed or deleted/);
    expect(await knex('audit_entries').where({ id: 'aud_frozen' }).first('action')).toEqual({ action: 'refund_created' });
  });
});
