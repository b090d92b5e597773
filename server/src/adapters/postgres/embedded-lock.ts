import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * PGlite has no lock between processes: two processes on one data directory would corrupt it. Whoever opens the
 * embedded database holds this lock; a second opener is refused with a message saying what to do instead.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dirname(dataDir), { recursive: true });
  const { default: lockfile } = await import('proper-lockfile'); // only the embedded database needs it
  try {
    return await lockfile.lock(dataDir, { realpath: false, lockfilePath: `${dataDir}.lock`, stale: 15_000, update: 5_000 });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new Error(
        `The embedded database in ${dataDir} is in use by another process (a running server?). ` +
          'Stop that process first, or set DATABASE_URL to a PostgreSQL server, which any number of processes can share.',
      );
    }
    throw error;
  }
}
