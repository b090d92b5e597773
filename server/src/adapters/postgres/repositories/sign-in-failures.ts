import type { SignInFailureRepository } from '../../../ports/account-repositories.js';
import { rowsAffected, type Db } from './query.js';

/** The first key of the two-key advisory locks sign-in attempts take turns under (the second: the e-mail's hash). */
const SIGN_IN_TURNS = 1_517_240_033;

export const signInFailureRepository = (db: Db): SignInFailureRepository => ({
  async takeTurn(email) {
    // Never waits: an attempt waiting for its turn would hold a pooled connection, and a flood of them the whole pool.
    const { rows } = await db.raw<{ rows: { taken: boolean }[] }>('SELECT pg_try_advisory_xact_lock(?, hashtext(?)) AS taken', [SIGN_IN_TURNS, email]);
    return rows[0]!.taken;
  },
  async record(failure) {
    const [row] = await db('sign_in_failures')
      .insert({ email: failure.email, client_address: failure.clientAddress, at: failure.at })
      .returning<{ id: string | number }[]>('id');
    return String(row!.id);
  },
  async withdraw(id) {
    await db('sign_in_failures').where({ id }).delete();
  },
  async ofEmail(email, since) {
    const rows = await db('sign_in_failures').where({ email }).where('at', '>', since).select<{ at: Date }[]>('at');
    return rows.map((row) => row.at);
  },
  async ofAddress(clientAddress, since) {
    const rows = await db('sign_in_failures').where({ client_address: clientAddress }).where('at', '>', since).select<{ at: Date }[]>('at');
    return rows.map((row) => row.at);
  },
  async clearEmail(email) {
    await db('sign_in_failures').where({ email }).delete();
  },
  async purgeOlderThan(cutoff) {
    return rowsAffected(await db('sign_in_failures').where('at', '<', cutoff).delete());
  },
});
