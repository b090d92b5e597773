// What gets published: a fresh build even from a clean clone, self-contained declarations, no Node built-ins on
// the client path, and wire types that are the contract's own.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesNamedByManifest } from '../scripts/build.js';
import { contractTypesPath, copyHeader, sdkTypesPath } from '../scripts/copy-contract-types.js';

const sdkRoot = fileURLToPath(new URL('../', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(sdkRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));

/** Module specifiers a file imports or re-exports (static and `import()` types). */
const specifiersOf = (source: string): string[] => [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');

/** What a clone has of a package: its sources, none of the outputs git ignores. */
const UNTRACKED = new Set(['node_modules', 'dist', 'docs', 'generated', '.turbo']);
const copySources = (from: string, to: string): void => cpSync(from, to, { recursive: true, filter: (path) => !UNTRACKED.has(basename(path)) });

/** One clean clone of the SDK, packed: `npm pack` builds it first (prepack); the build's output and the tarball are both checked below. */
let scratch: string;
let packed: string[];
beforeAll(() => {
  // A clean clone of the two packages the SDK's build reads (no dist, no generated types), sharing node_modules.
  scratch = mkdtempSync(join(tmpdir(), 'payment-qr-sdk-clone-'));
  const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ ...rootManifest, workspaces: ['contract', 'sdk'] }));
  cpSync(join(repoRoot, 'tsconfig.json'), join(scratch, 'tsconfig.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  copySources(join(repoRoot, 'contract'), join(scratch, 'contract'));
  copySources(sdkRoot, join(scratch, 'sdk'));
  // A leftover of an older build: a pack must not ship it.
  mkdirSync(join(scratch, 'sdk/dist'));
  writeFileSync(join(scratch, 'sdk/dist/removed-module.js'), 'export {};\n');

  const out = join(scratch, 'out');
  mkdirSync(out);
  execFileSync('npm', ['pack', '-w', 'sdk', '--pack-destination', out], {
    cwd: scratch,
    stdio: 'pipe',
    env: { ...process.env, npm_config_ignore_scripts: 'false' },
  });
  const [tarball] = readdirSync(out).filter((name) => name.endsWith('.tgz'));
  packed = execFileSync('tar', ['-tzf', join(out, tarball ?? 'missing.tgz')], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
}, 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the contract types', () => {
  it('src/generated is an up-to-date copy of the contract\u2019s generated types (else: npm run generate -w sdk)', () => {
    expect(readFileSync(sdkTypesPath, 'utf8')).toBe(copyHeader + readFileSync(contractTypesPath, 'utf8'));
  });
});

describe('the build', () => {
  // The fresh build `npm pack` made first (prepack) in the clean clone above: what the tarball ships.
  const outDir = (): string => join(scratch, 'sdk/dist');

  it('emits declarations that import only each other and the published dependencies', () => {
    const declarations = filesUnder(outDir()).filter((file) => file.endsWith('.d.ts'));
    expect(declarations.map((file) => relative(outDir(), file))).toContain('index.d.ts');
    for (const file of declarations) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        const ok =
          specifier.startsWith('./') || specifier.startsWith('../')
            ? !relative(outDir(), join(file, '..', specifier)).startsWith('..')
            : specifier in packageJson.dependencies;
        expect(ok, `${relative(outDir(), file)} imports '${specifier}'`).toBe(true);
      }
    }
  });

  it('has no `any` in the public declarations, and nothing of the workspace', () => {
    for (const file of filesUnder(outDir()).filter((f) => f.endsWith('.d.ts'))) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, relative(outDir(), file)).not.toMatch(/\bany\b/);
      expect(code, relative(outDir(), file)).not.toMatch(/@payment-qr\/(contract|server)|contract\/src|server\//);
    }
  });

  it('imports no Node built-in from the client code (it also runs in browsers)', () => {
    for (const file of filesUnder(outDir()).filter((f) => f.endsWith('.js'))) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        expect(specifier.startsWith('.') || specifier in packageJson.dependencies, `${relative(outDir(), file)} imports '${specifier}'`).toBe(true);
      }
    }
  });

  it('bundles for the browser with its dependencies, none of which needs Node', async () => {
    // esbuild (there through tsx) fails on any Node built-in when the platform is the browser.
    const result = await build({
      entryPoints: [join(sdkRoot, 'src/index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const bundle = result.outputFiles[0]?.text ?? '';
    expect(bundle).not.toMatch(/\bprocess\.env\b|require\(["']node:/);
  });
});

describe('npm pack -w sdk', () => {
  it('builds first (prepack), so a clean clone packs every file package.json names, with the contract types', () => {
    const named = filesNamedByManifest(packageJson).map((file) => file.replace(/^\.\//, ''));
    expect(named.length).toBeGreaterThan(0);
    expect(packed).toEqual(expect.arrayContaining([...named, 'dist/generated/openapi.d.ts', 'README.md', 'package.json']));
  });

  it('ships a fresh build only, not what an older one left in dist/', () => {
    expect(packed).not.toContain('dist/removed-module.js');
    expect(packed.filter((file) => !file.startsWith('dist/'))).toEqual(expect.arrayContaining(['README.md', 'package.json']));
    expect(packed.filter((file) => !file.startsWith('dist/'))).toHaveLength(2);
  });
});
