import pg from 'pg';

const RECONNECT_MS = 1_000;

export interface Listening {
  /** Each NOTIFY on the channel, with its payload ('' when none). */
  onNotify(payload: string): void;
  /** Listening (again): after a reconnect, notifications may have been missed meanwhile. */
  onListening(reconnected: boolean): void;
  onError(error: unknown): void;
}

/**
 * LISTEN on a dedicated connection, one per process and channel however many want to hear it. A lost connection is
 * re-opened a second later; the returned function stops listening.
 */
export async function listen(databaseUrl: string, channel: string, on: Listening): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let listenedBefore = false;

  const reconnectLater = (lost: pg.Client) => {
    if (stopped || client !== lost) return;
    client = null;
    lost.end().catch(() => undefined);
    retry = setTimeout(() => void connect(), RECONNECT_MS);
  };

  async function connect(): Promise<void> {
    const candidate = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
    client = candidate;
    candidate.on('notification', (message) => on.onNotify(message.payload ?? ''));
    candidate.on('error', (error) => {
      on.onError(error);
      reconnectLater(candidate);
    });
    candidate.on('end', () => reconnectLater(candidate));
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${channel}`);
      if (stopped) return void (await candidate.end());
      on.onListening(listenedBefore);
      listenedBefore = true;
    } catch (error) {
      on.onError(error);
      reconnectLater(candidate);
    }
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
