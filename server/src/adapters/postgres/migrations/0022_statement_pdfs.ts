import type { Knex } from 'knex';

/**
 * v1.3, documents within bounds: a closed month's statement PDF, rendered at its first download and kept, so that
 * every download is the same bytes and costs no render. Kept means frozen: never changed, never deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE statement_pdfs (
      merchant_id text NOT NULL REFERENCES merchants(id), month text NOT NULL, pdf bytea NOT NULL,
      created_at timestamptz NOT NULL, PRIMARY KEY (merchant_id, month))`);
  await knex.raw(`
      CREATE FUNCTION statement_pdfs_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'a kept statement PDF never changes';
      END $$`);
  await knex.raw(`CREATE TRIGGER statement_pdfs_frozen BEFORE UPDATE OR DELETE ON statement_pdfs
      FOR EACH ROW EXECUTE FUNCTION statement_pdfs_frozen()`);
}
