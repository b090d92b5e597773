import pg from 'pg';
import { databaseHosts } from './hosts.js';
import { writableHosts } from './writable-host.js';

const RECONNECT_MS = 1_000;

export interface Listening {
  /** Each NOTIFY on the channel, with its payload ('' when none). */
  onNotify(payload: string): void;
  /** Listening (again): after a reconnect, notifications may have been missed meanwhile. */
  onListening(reconnected: boolean): void;
  onError(error: unknown): void;
}

/** A client for one host, connected; with several hosts, connected to the one that accepts writes (NOTIFY is sent there). */
function connector(databaseUrl: string): (prepare: (client: pg.Client) => void) => Promise<pg.Client> {
  const hosts = databaseHosts(databaseUrl);
  if (hosts.length > 1) {
    const writable = writableHosts(hosts);
    return async (prepare) => (await writable.connect(prepare)).client;
  }
  return async (prepare) => {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
    prepare(client);
    await client.connect();
    return client;
  };
}

/**
 * LISTEN on a dedicated connection, one per process and channel however many want to hear it. A lost connection is
 * re-opened a second later (on the new primary after a failover); the returned function stops listening.
 */
export async function listen(databaseUrl: string, channel: string, on: Listening): Promise<() => Promise<void>> {
  const open = connector(databaseUrl);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let listenedBefore = false;

  const reconnectLater = (lost: pg.Client | null) => {
    if (stopped || client !== lost) return;
    client = null;
    lost?.end().catch(() => undefined);
    retry = setTimeout(() => void connect(), RECONNECT_MS);
  };

  async function connect(): Promise<void> {
    let opened: pg.Client | null = null;
    try {
      opened = await open((candidate) => {
        candidate.on('notification', (message) => on.onNotify(message.payload ?? ''));
        candidate.on('error', (error) => {
          if (candidate !== client) return; // a host passed over while connecting
          on.onError(error);
          reconnectLater(candidate);
        });
        candidate.on('end', () => reconnectLater(candidate));
      });
      client = opened;
      await opened.query(`LISTEN ${channel}`);
      if (stopped) return void (await opened.end());
      on.onListening(listenedBefore);
      listenedBefore = true;
    } catch (error) {
      on.onError(error);
      reconnectLater(opened);
    }
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
