import type { Knex } from 'knex';

/**
 * Instead of foreign keys from `referencing` to `table`: a guard refusing DELETE, TRUNCATE and a changed id on
 * `table` keeps every reference pointing at a row forever, and the foreign keys (whatever knex named them) go.
 * What a foreign key also checked on insert, that the row exists, is then up to the writers (see the migrations).
 */
export async function keepRowsInsteadOfForeignKeys(knex: Knex, table: string, referencing: readonly string[], hint: string): Promise<void> {
  await knex.raw(`
      CREATE FUNCTION ${table}_kept() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '${table} are never deleted and their id never changes (% refused)', TG_OP
          USING ERRCODE = 'restrict_violation', HINT = '${hint}';
      END $$`);
  await knex.raw(`CREATE TRIGGER ${table}_kept BEFORE DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_kept()`);
  await knex.raw(`CREATE TRIGGER ${table}_id_kept BEFORE UPDATE OF id ON ${table}
      FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION ${table}_kept()`);
  await knex.raw(`CREATE TRIGGER ${table}_not_truncated BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${table}_kept()`);
  const { rows } = await knex.raw<{ rows: { tbl: string; name: string }[] }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name FROM pg_constraint c
       WHERE c.contype = 'f' AND c.confrelid = ?::regclass AND c.conrelid::regclass::text = ANY(?)`,
    [table, [...referencing]],
  );
  for (const { tbl, name } of rows) await knex.raw('ALTER TABLE ?? DROP CONSTRAINT ??', [tbl, name]);
}
