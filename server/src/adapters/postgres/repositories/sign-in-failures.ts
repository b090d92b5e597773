import type { SignInFailureRepository } from '../../../ports/account-repositories.js';
import { rowsAffected, type Db } from './query.js';

export const signInFailureRepository = (db: Db): SignInFailureRepository => ({
  async record(failure) {
    await db('sign_in_failures').insert({ email: failure.email, client_address: failure.clientAddress, at: failure.at });
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
