/**
 * The run's migrated PGlite data directory (a tar from `dumpDataDir`), made once for the code it was made from and
 * kept under node_modules/.cache: the server's, the SDK's and the conformance suite's global setups, and CI's pass on
 * PostgreSQL after the one on PGlite, read one file instead of each running initdb and every migration again (about
 * 4 CPU s each). Its name is a hash of package-lock.json (PGlite's and knex's versions) and every file under
 * server/src, so a changed migration, or anything a migration could import, makes a new one from zero before any test
 * runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import KnexPGlite from 'knex-pglite';
import { migrateToLatest } from '../../src/adapters/postgres/migrations.js';

const serverSrc = fileURLToPath(new URL('../../src/', import.meta.url));
const lockfile = fileURLToPath(new URL('../../../package-lock.json', import.meta.url));
const cacheDir = fileURLToPath(new URL('../../../node_modules/.cache/payment-qr-tests/', import.meta.url));
/** Snapshots of older code kept beside the newest (another checkout's run may still be reading one). */
const KEEP = 3;

function codeHash(): string {
  // This file too: how the snapshot is made (migrateFromZero) is part of what it is.
  const hash = createHash('sha256')
    .update(readFileSync(lockfile))
    .update(readFileSync(fileURLToPath(import.meta.url)));
  const files = readdirSync(serverSrc, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  for (const file of files.map((entry) => join(entry.parentPath, entry.name)).sort())
    hash.update(relative(serverSrc, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * An in-memory PGlite migrated from zero, dumped: only what a test's database starts from. Every test server and CLI
 * data directory copies the whole tar into PGlite's in-memory file system at start, so its size is paid hundreds of
 * times a run (42 MB as initdb and the migrations leave it, 17 MB so: about 0.5 CPU s less a start, a third of it the
 * kernel's page faults, docs/testing.md). So WAL in 1 MB segments, not 16 (initdb's `--wal-segsize`; a checkpoint then
 * leaves one or two of them), and without the template databases, which nothing here copies (the service's
 * database is `postgres`; no test creates another on PGlite).
 */
async function migrateFromZero(): Promise<Buffer> {
  // initdb first, outside knex's wait for a connection (a minute, which a busy machine's initdb can take).
  const pglite = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'] });
  const embedded = knex({ client: KnexPGlite, dialect: 'postgres', connection: { pglite } } as Knex.Config);
  try {
    await migrateToLatest(embedded, false);
    await pglite.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
    await pglite.exec('DROP DATABASE template0');
    await pglite.exec('DROP DATABASE template1');
    await pglite.exec('CHECKPOINT');
    return Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await embedded.destroy();
  }
}

/** The path of the migrated snapshot of this code, made now if no run has made it yet. */
export async function migratedSnapshotFile(): Promise<string> {
  const file = join(cacheDir, `migrated-${codeHash()}.tar`);
  if (existsSync(file)) return file;
  const tar = await migrateFromZero();
  mkdirSync(cacheDir, { recursive: true });
  // Written whole, then renamed: a run that finds the name finds all of it (two runs making it at once both succeed).
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, tar);
  renameSync(partial, file);
  const older = readdirSync(cacheDir)
    .filter((name) => name.startsWith('migrated-') && join(cacheDir, name) !== file)
    .map((name) => ({ path: join(cacheDir, name), at: statSync(join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { path } of older.slice(KEEP)) rmSync(path, { force: true });
  return file;
}

// `npm run test:snapshot -w server` (turbo runs it before the suites, so that they find it made instead of each making it).
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await migratedSnapshotFile());
