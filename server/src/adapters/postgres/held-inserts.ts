import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { sendDirect, type Insert } from './repositories/query.js';

/** Statement names by shape, so that the hot path hashes a statement's text only the first time it sees it. */
const names = new Map<string, string>();
const MAX_NAMES = 1_000;

/** Named, so each PostgreSQL connection parses and plans a statement of this shape once. */
function statementNameOf(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `held_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(sql, name);
  }
  return name;
}

/** The head of a held statement: a query that yields a row when, and only when, the held rows may be written. */
export interface Gate {
  sql: string;
  bindings: readonly Knex.Value[];
}

const open: Gate = { sql: 'SELECT 1', bindings: [] };

/**
 * Rows held in memory by a unit of work, then written in ONE statement: one round trip, and atomic without
 * BEGIN and COMMIT. Each row is selected from the gate, so nothing is written unless the gate lets it through.
 * Constraints and triggers still run, at the end of the statement.
 */
export class HeldInserts {
  private readonly held: { table: string; row: object }[] = [];

  readonly insert: Insert = async (table, row) => {
    this.held.push({ table, row });
  };

  /** Writes every held row unless the gate yields nothing; says whether it let them through. */
  async commit(knex: Knex, gate: Gate = open): Promise<boolean> {
    const values: unknown[] = [...gate.bindings];
    const placeholder = () => `$${values.length}`;
    const inserts = this.held.map(({ table, row }, n) => {
      const columns = Object.entries(row).filter(([, value]) => value !== undefined);
      const names = columns.map(([column]) => `"${column}"`).join(', ');
      const selected = columns.map(([, value]) => (values.push(value), placeholder())).join(', ');
      return `, row_${n} AS (INSERT INTO "${table}" (${names}) SELECT ${selected} FROM gate)`;
    });
    let bound = 0;
    const gateSql = gate.sql.replace(/\?/g, () => `$${++bound}`);
    const sql = `WITH gate AS (${gateSql})${inserts.join('')} SELECT count(*)::int AS passed FROM gate`;
    const name = statementNameOf(sql);
    const [result] = await sendDirect<{ passed: number }>(knex, sql, values, name);
    return result!.passed > 0;
  }
}
