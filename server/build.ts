/**
 * `npm run build -w server`: bundles the server's entry points (src/main.ts, src/worker.ts) into plain JavaScript in
 * dist/, so production runs `node server/dist/main.js` without tsx (whose loader thread and esbuild cost about 75 MiB
 * of RSS). Packages in node_modules stay imports (loaded from node_modules as they are); our own code and the contract
 * package, which exports TypeScript, are bundled. The CLI runs the TypeScript sources (`npm run cli`); the tests run it
 * bundled likewise (test/support/global-setup.ts), so that no call compiles TypeScript first.
 *
 * Files the code reads next to itself (templates, assets, the contract YAML) are not copied: in the bundle each
 * module's `import.meta.url` is its source file's URL, relative to the bundle, so they resolve as from the sources.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const SERVER = dirname(fileURLToPath(import.meta.url));
const OUT_DIR = resolve(SERVER, 'dist');
export const ENTRIES = ['main', 'worker'] as const;

/** Bare imports stay imports, except our workspace packages (the contract exports TypeScript: it is bundled). */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@payment-qr/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Each bundled module sees its source file as `import.meta.url`, except the entry point itself: main.ts and worker.ts
 * compare theirs with process.argv[1] to know they were started (and the worker's bundle contains main.ts too).
 */
function sourceUrls(entry: string, outDir: string): Plugin {
  return {
    name: 'source-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (args.path === entry || !source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        const fromBundle = relative(outDir, args.path).split(sep).join('/');
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

/**
 * Writes a file whole or not at all: into a file of its own next to it, then renamed over it (a rename within a
 * directory is atomic). Several builds at once (five `npm start` from one checkout) each replace the bundle in one
 * step, so a process starting meanwhile loads the previous bundle or the new one, never half of one.
 */
async function writeAtomically(path: string, contents: Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, contents);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** One entry point (a path under src/, without .ts) bundled into `outfile`, which must lie inside the server package (imports resolve from there). */
async function bundle(name: string, outfile: string): Promise<void> {
  const entry = resolve(SERVER, 'src', `${name}.ts`);
  await mkdir(dirname(outfile), { recursive: true });
  const { outputFiles } = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalPackages, sourceUrls(entry, dirname(outfile))],
    logLevel: 'warning',
    legalComments: 'none',
    write: false, // written below, each file in one step
  });
  for (const file of outputFiles) await writeAtomically(file.path, file.contents);
}

export async function buildServer(): Promise<void> {
  await Promise.all(ENTRIES.map((name) => bundle(name, resolve(OUT_DIR, `${name}.js`))));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`server: built ${ENTRIES.map((name) => `dist/${name}.js`).join(', ')} in ${Math.round(performance.now() - started)} ms`);
}
