import type { Credentials, User } from '../../../domain/user.js';
import type { UserRepository } from '../../../ports/account-repositories.js';
import { rowsAffected, type Db } from './query.js';

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  totp_secret: string;
  totp_last_step: string | number | null; // bigint
  created_at: Date;
  password_changed_at: Date;
}

const toUser = (row: UserRow): { user: User; credentials: Credentials } => ({
  user: { id: row.id, email: row.email, createdAt: row.created_at, passwordChangedAt: row.password_changed_at },
  credentials: {
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
  },
});

export const userRepository = (db: Db): UserRepository => ({
  async insert(user, credentials) {
    await db('users').insert({
      id: user.id,
      email: user.email,
      password_hash: credentials.passwordHash,
      totp_secret: credentials.totpSecret,
      totp_last_step: credentials.totpLastStep,
      created_at: user.createdAt,
      password_changed_at: user.passwordChangedAt,
    });
  },
  async findByEmail(email) {
    const row = await db<UserRow>('users').where({ email }).first();
    return row ? toUser(row) : null;
  },
  async findById(id) {
    const row = await db<UserRow>('users').where({ id }).first();
    return row ? toUser(row) : null;
  },
  async setPassword(id, passwordHash, at) {
    await db('users').where({ id }).update({ password_hash: passwordHash, password_changed_at: at });
  },
  async setSecondFactor(id, totpSecret, step) {
    await db('users').where({ id }).update({ totp_secret: totpSecret, totp_last_step: step });
  },
  async useTotpStep(id, step) {
    // One statement decides: two sign-ins with the same code cannot both pass.
    const updated = await db('users')
      .where({ id })
      .andWhere((q) => {
        void q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step);
      })
      .update({ totp_last_step: step });
    return rowsAffected(updated) === 1;
  },
  async replaceRecoveryCodes(userId, codeHashes, at) {
    await db('recovery_codes').where({ user_id: userId }).delete();
    if (codeHashes.length > 0) await db('recovery_codes').insert(codeHashes.map((hash) => ({ user_id: userId, code_hash: hash, created_at: at })));
  },
  async useRecoveryCode(userId, codeHash, at) {
    const updated = await db('recovery_codes').where({ user_id: userId, code_hash: codeHash }).whereNull('used_at').update({ used_at: at });
    return rowsAffected(updated) === 1;
  },
  async unusedRecoveryCodes(userId) {
    const [row] = await db('recovery_codes').where({ user_id: userId }).whereNull('used_at').count<{ count: number }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  },
});
