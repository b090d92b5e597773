import type { Knex } from 'knex';

/**
 * v1.2, the dashboard's accounts: users (an e-mail, a scrypt password hash and a TOTP secret), their memberships of
 * merchants with a role, invitations, sessions, recovery codes and failed sign-ins. Every secret a browser or a
 * person holds (invitation token, session id, recovery code) is stored only as its SHA-256 hash.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE users (
      id text PRIMARY KEY,
      email text NOT NULL UNIQUE CHECK (email = lower(email)),
      password_hash text NOT NULL,
      totp_secret text NOT NULL,
      totp_last_step bigint,
      created_at timestamptz NOT NULL,
      password_changed_at timestamptz NOT NULL)`);
  await knex.raw(`CREATE TABLE memberships (
      user_id text NOT NULL REFERENCES users(id),
      merchant_id text NOT NULL REFERENCES merchants(id),
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer')),
      created_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, merchant_id))`);
  await knex.raw('CREATE INDEX memberships_by_merchant ON memberships (merchant_id)');
  await knex.raw(`CREATE TABLE invitations (
      id text PRIMARY KEY,
      merchant_id text NOT NULL REFERENCES merchants(id),
      email text NOT NULL CHECK (email = lower(email)),
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer')),
      token_hash text NOT NULL UNIQUE,
      invited_by text REFERENCES users(id),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      revoked_at timestamptz,
      pending_password_hash text,
      pending_totp_secret text)`);
  await knex.raw('CREATE INDEX invitations_by_merchant ON invitations (merchant_id, created_at)');
  await knex.raw(`CREATE TABLE dashboard_sessions (
      id_hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users(id),
      merchant_id text REFERENCES merchants(id),
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      verified_at timestamptz,
      client_address text,
      user_agent text)`);
  await knex.raw('CREATE INDEX dashboard_sessions_by_user ON dashboard_sessions (user_id)');
  await knex.raw(`CREATE TABLE recovery_codes (
      user_id text NOT NULL REFERENCES users(id),
      code_hash text NOT NULL,
      created_at timestamptz NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash))`);
  await knex.raw(`CREATE TABLE sign_in_failures (
      id bigserial PRIMARY KEY,
      email text NOT NULL,
      client_address text NOT NULL,
      at timestamptz NOT NULL)`);
  await knex.raw('CREATE INDEX sign_in_failures_by_email ON sign_in_failures (email, at)');
  await knex.raw('CREATE INDEX sign_in_failures_by_address ON sign_in_failures (client_address, at)');
  await knex.raw('CREATE INDEX sign_in_failures_by_time ON sign_in_failures (at)');
}
