// The size budget of the published SDK, run by `npm run lint -w sdk` after the build: what it adds to a
// merchant's bundle (its ES build bundled and minified, gzipped, without its dependencies), and, so that
// nothing unintended gets published, the tarball `npm pack` makes.
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const BUNDLE_BUDGET_BYTES = 30_000;
// 72 kB since v1.3 added two resources (tills, slip verifications) with their types and docs: 67.2 kB then.
const TARBALL_BUDGET_BYTES = 72_000;
const sdkRoot = fileURLToPath(new URL('../', import.meta.url));

async function bundledSize(): Promise<number> {
  const result = await build({
    entryPoints: [`${sdkRoot}dist/index.js`],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array()).length;
}

function tarballSize(): { size: number; entryCount: number } {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: sdkRoot, encoding: 'utf8' });
  const [info] = JSON.parse(output) as { size: number; entryCount: number }[];
  if (!info) throw new Error('npm pack --dry-run printed no package');
  return info;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bundle = await bundledSize();
  const tarball = tarballSize();
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log(
    `sdk size: bundled ${kB(bundle)} gzipped without dependencies (budget ${kB(BUNDLE_BUDGET_BYTES)}); tarball ${kB(tarball.size)}, ${tarball.entryCount} files (budget ${kB(TARBALL_BUDGET_BYTES)})`,
  );
  if (bundle > BUNDLE_BUDGET_BYTES || tarball.size > TARBALL_BUDGET_BYTES) {
    console.error('sdk size: OVER BUDGET');
    process.exit(1);
  }
}
