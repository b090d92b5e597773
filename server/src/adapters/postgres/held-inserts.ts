import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { sendDirect, type Insert } from './repositories/query.js';

/** A held statement's shape so far (its gate, then each row's table and the columns it gives), and the statement once built. */
interface Shape {
  next: Map<string, Shape>;
  statement?: { sql: string; name: string };
}

/**
 * Statements by shape, found by walking the gate's text, each table and each column given, without building the
 * statement's text: the hot path builds and names a statement only the first time it sees its shape (about 13 KB of
 * strings a QR code otherwise). Bounded: a process that met more shapes than any service writes starts over.
 */
let shapes: Shape = { next: new Map() };
/** Statements built since the last start-over: each is one path of the tree, about 40 steps for a QR code. */
let built = 0;
const MAX_STATEMENTS = 1_000;
/** Between one row and the next, so that a column cannot be read as the next row's table. */
const END_OF_ROW = '\u0000';

function step(shape: Shape, key: string): Shape {
  let next = shape.next.get(key);
  if (next === undefined) {
    next = { next: new Map() };
    shape.next.set(key, next);
  }
  return next;
}

/** Dates go as ISO 8601 text: PostgreSQL reads it as the same instant, and the driver's local-time formatter is dearer. */
const parameter = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

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
    if (built >= MAX_STATEMENTS) [shapes, built] = [{ next: new Map() }, 0];
    const values: unknown[] = [...gate.bindings];
    let shape = step(shapes, gate.sql);
    for (const { table, row } of this.held) {
      shape = step(shape, table);
      const fields = row as Record<string, unknown>;
      for (const column in fields) {
        const value = fields[column];
        if (value === undefined) continue;
        shape = step(shape, column);
        values.push(parameter(value));
      }
      shape = step(shape, END_OF_ROW);
    }
    if (shape.statement === undefined) {
      shape.statement = this.statement(gate);
      built++;
    }
    const [result] = await sendDirect<{ passed: number }>(knex, shape.statement.sql, values, shape.statement.name);
    return result!.passed > 0;
  }

  /** The statement of this shape: each row selected from the gate, `$n` placeholders in the order `commit` gives the values. */
  private statement(gate: Gate): { sql: string; name: string } {
    let bound = gate.bindings.length;
    const inserts = this.held.map(({ table, row }, n) => {
      const columns = Object.keys(row).filter((column) => (row as Record<string, unknown>)[column] !== undefined);
      const selected = columns.map(() => `$${++bound}`).join(', ');
      return `, row_${n} AS (INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) SELECT ${selected} FROM gate)`;
    });
    let gateBound = 0;
    const gateSql = gate.sql.replace(/\?/g, () => `$${++gateBound}`);
    const sql = `WITH gate AS (${gateSql})${inserts.join('')} SELECT count(*)::int AS passed FROM gate`;
    return { sql, name: `held_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}` };
  }
}
