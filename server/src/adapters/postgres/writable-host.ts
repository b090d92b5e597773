import pg from 'pg';
import type { DatabaseHost } from './hosts.js';

const CONNECT_TIMEOUT_MS = 5_000;

/** No host accepts writes (all down, standbys, or read-only while a failover settles): 08001, as libpq says it. */
export class NoWritableHost extends Error {
  readonly code = '08001';
}

export interface WritableHosts {
  /** `host:port` of the host that last accepted writes; null before the first connection. */
  lastPrimary(): string | null;
  /**
   * A connected client on a host whose sessions accept writes (libpq's target_session_attrs=read-write): the last
   * primary first, then the others in the URL's order. `prepare` gets each client before it connects (its listeners).
   */
  connect(prepare?: (client: pg.Client) => void): Promise<{ client: pg.Client; host: DatabaseHost }>;
}

export function writableHosts(hosts: DatabaseHost[]): WritableHosts {
  let primary: DatabaseHost | null = null;
  return {
    lastPrimary: () => primary?.label ?? null,
    async connect(prepare = () => undefined) {
      const order = primary ? [primary, ...hosts.filter((host) => host !== primary)] : hosts;
      const outcomes: string[] = [];
      for (const host of order) {
        const client = new pg.Client({ connectionString: host.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
        client.on('error', () => undefined); // a refused candidate may still report its end
        prepare(client);
        try {
          await client.connect();
          // 'on' on a standby, and on a primary being demoted or promoted but not yet confirmed (pg_auto_failover).
          const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
          if (rows[0]?.transaction_read_only === 'off') {
            primary = host;
            return { client, host };
          }
          outcomes.push(`${host.label}: read-only`);
        } catch (error) {
          outcomes.push(`${host.label}: ${(error as { code?: string }).code ?? (error as Error).message}`);
        }
        await client.end().catch(() => undefined);
      }
      throw new NoWritableHost(`No host of DATABASE_URL accepts writes (${outcomes.join('; ')}).`);
    },
  };
}
