import type { Knex } from 'knex';
import type { DateRange, Page, PageRequest } from '../../../domain/page.js';
import type pg from 'pg';
import { queryDescribedOnce } from '../described-once.js';
import { keptConnectionsOf, type Connection } from '../kept-connections.js';

export type Db = Knex | Knex.Transaction;

/**
 * How a repository adds a row: at once, one statement each (`insertNow`), or held to be committed with the other
 * rows of its unit of work in one statement (../held-inserts.ts).
 */
export type Insert = (table: string, row: object) => Promise<void>;

export const insertNow =
  (db: Db): Insert =>
  async (table, row) => {
    await db(table).insert(row);
  };

/**
 * Sends one statement without knex's query building and pipeline: for the hot paths. On a pooled connection kept
 * between hot statements (../kept-connections.ts), or the one knex lends (the transaction's, or a pooled one when none
 * is kept). `$n` placeholders. A named statement is parsed, planned and described once per PostgreSQL connection
 * (../described-once.ts); PGlite (which has no named statements) gets it unnamed.
 */
export async function sendDirect<Row>(db: Db, text: string, values: unknown[], name?: string): Promise<Row[]> {
  const kept = keptConnectionsOf(db);
  const lent = kept ? kept.lend() : (db.client.acquireConnection() as Promise<Connection>);
  const connection = lent instanceof Promise ? await lent : lent;
  try {
    if ('waitReady' in connection || !name) return (await connection.query(text, values)).rows as Row[]; // PGlite: query(text, values)
    return await queryDescribedOnce<Row>(connection as unknown as pg.Client, name, text, values);
  } finally {
    if (kept) kept.keep(connection);
    else await db.client.releaseConnection(connection);
  }
}

/** Inclusive date range on created_at. */
export function whereCreatedWithin(query: Knex.QueryBuilder, range: DateRange): Knex.QueryBuilder {
  if (range.startDate) query.where('created_at', '>=', range.startDate);
  if (range.endDate) query.where('created_at', '<=', range.endDate);
  return query;
}

const newestFirst = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/**
 * One page, newest first with ties broken by id descending, and the total of every match (counted unless the
 * caller knows it cheaper). The page's ids are found in the index first, so a deep offset never reads whole rows;
 * a caller that finds them its own way (`newestAcross`) passes them.
 */
export async function pageOf<Row, T>(
  db: Db,
  table: string,
  filtered: Knex.QueryBuilder,
  page: PageRequest,
  toDomain: (row: Row) => T,
  known: { total?: Promise<number>; ids?: Knex.QueryBuilder } = {},
): Promise<Page<T>> {
  const ids =
    known.ids ??
    filtered
      .clone()
      .select('id')
      .orderBy([...newestFirst])
      .limit(page.limit)
      .offset(page.offset);
  const [rows, total] = await Promise.all([
    db(table)
      .whereIn('id', ids)
      .orderBy([...newestFirst]),
    known.total ??
      filtered
        .clone()
        .count<{ count: number }[]>({ count: '*' })
        .then((counted) => Number(counted[0]?.count ?? 0)),
  ]);
  return { items: (rows as Row[]).map(toDomain), total };
}

/**
 * The ids of one page of a merchant's rows, newest first, from ONE index that leads with the merchant and then the
 * columns a list filters on (a status, a kind, a type and a status), followed by (created_at DESC, id DESC). Each of
 * `groups` (the merchant and one value of each such column) is read newest first from that index, at most offset +
 * limit entries, and PostgreSQL merges the groups in order (a Merge Append), so a page costs what it cost with an
 * index per filter, at a million rows as at a hundred, while each written row pays for one index entry instead of one
 * per filter. A group with no rows costs one index descent. Every value the column can hold must be in a group:
 * the callers take them from the domain's lists.
 */
export function newestAcross(
  db: Db,
  table: string,
  groups: Record<string, unknown>[],
  range: DateRange,
  page: PageRequest,
  limit = page.limit,
): Knex.QueryBuilder {
  const newest = (group: Record<string, unknown>) =>
    whereCreatedWithin(db(table).where(group), range)
      .select('id', 'created_at')
      .orderBy([...newestFirst])
      .limit(page.offset + limit);
  const merged = db.queryBuilder().unionAll(groups.map(newest), true);
  return db
    .select('id')
    .from(merged.as('newest'))
    .orderBy([...newestFirst])
    .limit(limit)
    .offset(page.offset);
}

/** Drops undefined filter values so knex never sees them. */
export function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** Rows a write touched: knex answers a number on PostgreSQL, and PGlite's driver may answer its raw result for a delete. */
export const rowsAffected = (result: unknown): number =>
  typeof result === 'number'
    ? result
    : Number((result as { rowCount?: number; affectedRows?: number } | null)?.rowCount ?? (result as { affectedRows?: number } | null)?.affectedRows ?? 0);
