import pg from 'pg';

/** What pg's Result keeps of a row description, set by its `addFields` (pg/lib/result.js). */
interface Described {
  fields: unknown[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: object;
}

/** The parts of pg's Query (pg/lib/query.js) this file uses: its own `prepare`, less the Describe. */
interface QueryInternals {
  name: string;
  portal: string;
  values: unknown[];
  binary: boolean | undefined;
  rows: number | undefined;
  _result: Described & { rows: unknown[] };
  _accumulateRows: boolean;
  hasBeenParsed(connection: unknown): boolean;
  _getRows(connection: unknown, rows: number | undefined): void;
  handleError(error: unknown, connection: unknown): void;
}

interface Connection {
  bind(message: { portal: string; statement: string; values: unknown[]; binary: boolean | undefined; valueMapper: unknown }): void;
  close(message: { type: 'S'; name: string }): void;
  sync(): void;
}

/** pg's own value mapper (Dates, Buffers, arrays, JSON), as its Query's `prepare` uses it. */
const prepareValue = (pg as unknown as { utils?: { prepareValue?: unknown } }).utils?.prepareValue;

/** Per pg connection (one PostgreSQL session), the row description of each named statement it has prepared. */
const descriptions = new WeakMap<object, Map<string, Described>>();

/**
 * A named statement that asks PostgreSQL for its row description only on its first execution on a connection, as pg's
 * Query does on every one: later executions send Bind, Execute and Sync without Describe, and the rows are read with
 * the description kept from the first. A payment retrieval's description (20 columns) is about 6 KB of parsing and
 * allocation each time, a sixth of the request's (docs/performance.md).
 *
 * Sound because a prepared statement's result columns cannot change on its session: PostgreSQL refuses to execute one
 * whose tables changed its result type ("cached plan must not change result type"), as it does for pg's own named
 * statements; the description is kept per connection, so a new session (a reconnect, another host) describes anew.
 */
class DescribedOnce extends pg.Query {
  private preparedOn: object | null = null;

  prepare(connection: Connection): void {
    const query = this as unknown as QueryInternals;
    const known = typeof prepareValue === 'function' && query.hasBeenParsed(connection) ? descriptions.get(connection)?.get(query.name) : undefined;
    if (known === undefined) {
      this.preparedOn = connection;
      (pg.Query.prototype as unknown as { prepare(connection: Connection): void }).prepare.call(this, connection);
      return;
    }
    try {
      connection.bind({ portal: query.portal, statement: query.name, values: query.values, binary: query.binary, valueMapper: prepareValue });
    } catch (error) {
      connection.close({ type: 'S', name: query.name });
      connection.sync();
      query.handleError(error, connection);
      return;
    }
    query._result.fields = known.fields;
    query._result._parsers = known._parsers;
    query._result._prebuiltEmptyResultObject = known._prebuiltEmptyResultObject;
    query._accumulateRows = true;
    query._getRows(connection, query.rows);
  }

  handleRowDescription(message: unknown): void {
    (pg.Query.prototype as unknown as { handleRowDescription(message: unknown): void }).handleRowDescription.call(this, message);
    const query = this as unknown as QueryInternals;
    if (this.preparedOn === null) return;
    let known = descriptions.get(this.preparedOn);
    if (known === undefined) descriptions.set(this.preparedOn, (known = new Map()));
    const { fields, _parsers, _prebuiltEmptyResultObject } = query._result;
    known.set(query.name, { fields, _parsers, _prebuiltEmptyResultObject });
  }
}

/** Executes a named statement on a pg client, described once per session (see DescribedOnce); its rows. */
export function queryDescribedOnce<Row>(client: pg.Client, name: string, text: string, values: unknown[]): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    // Text, values and callback apart, not a config object: pg copies a config object property by property.
    const query = new DescribedOnce(text, values, (error: Error | undefined, result: { rows: unknown[] }) =>
      error ? reject(error) : resolve(result.rows as Row[]),
    );
    (query as unknown as QueryInternals).name = name;
    void client.query(query);
  });
}
