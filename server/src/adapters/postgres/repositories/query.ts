import type { Knex } from 'knex';
import type { DateRange, Page, PageRequest } from '../../../domain/page.js';

export type Db = Knex | Knex.Transaction;

/** Inclusive date range on created_at. */
export function whereCreatedWithin(query: Knex.QueryBuilder, range: DateRange): Knex.QueryBuilder {
  if (range.startDate) query.where('created_at', '>=', range.startDate);
  if (range.endDate) query.where('created_at', '<=', range.endDate);
  return query;
}

/** One page, newest first with ties broken by id descending, and the total of every match. */
export async function pageOf<Row, T>(filtered: Knex.QueryBuilder, page: PageRequest, toDomain: (row: Row) => T): Promise<Page<T>> {
  const [rows, counted] = await Promise.all([
    filtered.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit).offset(page.offset),
    filtered.clone().clearSelect().count<{ count: number }[]>({ count: '*' }),
  ]);
  return { items: (rows as Row[]).map(toDomain), total: Number(counted[0]?.count ?? 0) };
}

/** Drops undefined filter values so knex never sees them. */
export function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
