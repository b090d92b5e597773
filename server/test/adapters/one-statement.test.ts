import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createQrCode } from '../../src/app/create-qr-code.js';
import type { Services } from '../../src/app/services.js';
import type { Merchant } from '../../src/domain/merchant.js';
import type { KeyedRecord, QrCodeWrites } from '../../src/ports/repositories.js';
import { usingTestServer } from '../support/test-server.js';

let s: Services;

const { server } = usingTestServer();
beforeAll(async () => {
  s = server.running.runtime.services;
});

async function newMerchant(): Promise<Merchant> {
  const { id } = await server.merchant();
  return (await s.uow.repos.merchants.findById(id))!;
}
const paymentsOf = async (merchant: Merchant) => (await s.uow.repos.payments.list(merchant.id, {}, { limit: 100, offset: 0 })).total;
const transactionsOf = async (merchant: Merchant) => (await s.uow.repos.transactions.list(merchant.id, {}, { limit: 100, offset: 0 })).total;
const newQrCode = (merchant: Merchant) => (writes: QrCodeWrites) => createQrCode(writes, s, merchant, { amount: 10000, currency: 'THB' });
const keyed =
  (merchant: Merchant, key: string, at = new Date(), notBefore = new Date(at.getTime() - 60_000)) =>
  (): KeyedRecord => ({ merchantId: merchant.id, key, notBefore, response: { fingerprint: 'f', status: 200, body: `{"key":"${key}"}`, createdAt: at } });

describe('one-statement unit of work', () => {
  it('writes the payment (and so its transaction), its QR code and the keyed result together', async () => {
    const merchant = await newMerchant();
    const written = await s.uow.runInOneStatement(newQrCode(merchant), keyed(merchant, 'k1'));
    expect(written.committed).toBe(true);
    const { payment, qrCode } = (written as { result: Awaited<ReturnType<ReturnType<typeof newQrCode>>> }).result;
    expect((await s.uow.repos.payments.findById(merchant.id, payment.id))?.status).toBe('pending');
    expect((await s.uow.repos.qrCodes.findById(qrCode.id))?.paymentId).toBe(payment.id);
    expect(await transactionsOf(merchant)).toBe(1);
  });

  it('writes nothing when a result is already stored under the key', async () => {
    const merchant = await newMerchant();
    expect((await s.uow.runInOneStatement(newQrCode(merchant), keyed(merchant, 'k2'))).committed).toBe(true);
    expect((await s.uow.runInOneStatement(newQrCode(merchant), keyed(merchant, 'k2'))).committed).toBe(false);
    expect(await paymentsOf(merchant)).toBe(1);
    expect(await transactionsOf(merchant)).toBe(1);
  });

  it('writes nothing while a transaction holds the key, nor after it stored its result there', async () => {
    const merchant = await newMerchant();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const isClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const holder = s.uow.run(async (tx) => {
      expect((await tx.idempotency.claim(merchant.id, 'k3', new Date(0))).held).toBe(true);
      await tx.idempotency.save(merchant.id, 'k3', keyed(merchant, 'k3')().response);
      claimed();
      await released;
    });
    await isClaimed;
    // On PostgreSQL the statement finds the key locked; on PGlite (one connection) it waits for the transaction to end.
    const written = s.uow.runInOneStatement(newQrCode(merchant), keyed(merchant, 'k3'));
    await Promise.race([written, new Promise((resolve) => setTimeout(resolve, 300))]);
    release();
    await holder;
    expect((await written).committed).toBe(false);
    expect(await paymentsOf(merchant)).toBe(0);
  });

  it('takes a key whose result has lapsed, replacing it', async () => {
    const merchant = await newMerchant();
    const dayBefore = new Date(Date.now() - 25 * 3600_000);
    expect((await s.uow.runInOneStatement(newQrCode(merchant), keyed(merchant, 'k4', dayBefore))).committed).toBe(true);
    expect((await s.uow.runInOneStatement(newQrCode(merchant), keyed(merchant, 'k4', new Date(), new Date(Date.now() - 24 * 3600_000)))).committed).toBe(true);
    expect(await paymentsOf(merchant)).toBe(2);
  });

  it('writes none of the rows when one of them fails', async () => {
    const merchant = await newMerchant();
    const attempt = s.uow.runInOneStatement(async (writes) => {
      const { qrCode } = await newQrCode(merchant)(writes);
      // A second QR code with the first one's bank reference: the unique constraint fails at the end of the statement.
      await writes.qrCodes.insert({ ...qrCode, id: `${qrCode.id}_twin` });
    });
    await expect(attempt).rejects.toThrow(/qr_codes_bank_reference_unique/);
    expect(await paymentsOf(merchant)).toBe(0);
    expect(await transactionsOf(merchant)).toBe(0);
  });

  it('offers the work inserts only: nothing that reads, updates or locks rows, which would escape the statement', async () => {
    expectTypeOf<QrCodeWrites['payments']>().not.toHaveProperty('update');
    expectTypeOf<QrCodeWrites['payments']>().not.toHaveProperty('findById');
    const written = await s.uow.runInOneStatement(async (writes) =>
      Object.fromEntries(Object.entries(writes).map(([name, port]) => [name, Object.keys(port as object).sort()])),
    );
    expect(written).toEqual({
      committed: true,
      result: { payments: ['insert'], events: ['record'], qrCodes: ['insert'], bankChecks: ['watch'] },
    });
  });
});
