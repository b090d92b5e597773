// What gets published: self-contained declarations, no Node built-ins on the client path, and wire types
// that are the contract's own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractTypesPath, copyHeader, sdkTypesPath } from '../scripts/copy-contract-types.js';

const sdkRoot = fileURLToPath(new URL('../', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(sdkRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));

/** Module specifiers a file imports or re-exports (static and `import()` types). */
const specifiersOf = (source: string): string[] => [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');

describe('the contract types', () => {
  it('src/generated is an up-to-date copy of the contract\u2019s generated types (else: npm run generate -w sdk)', () => {
    expect(readFileSync(sdkTypesPath, 'utf8')).toBe(copyHeader + readFileSync(contractTypesPath, 'utf8'));
  });
});

describe('the build', () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'payment-qr-sdk-dist-'));
    execFileSync(process.execPath, [join(sdkRoot, '../node_modules/typescript/bin/tsc'), '-p', join(sdkRoot, 'tsconfig.build.json'), '--outDir', outDir], { stdio: 'pipe' });
  }, 60_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('emits declarations that import only each other and the published dependencies', () => {
    const declarations = filesUnder(outDir).filter((file) => file.endsWith('.d.ts'));
    expect(declarations.map((file) => relative(outDir, file))).toContain('index.d.ts');
    for (const file of declarations) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        const ok = specifier.startsWith('./') || specifier.startsWith('../') ? !relative(outDir, join(file, '..', specifier)).startsWith('..') : specifier in packageJson.dependencies;
        expect(ok, `${relative(outDir, file)} imports '${specifier}'`).toBe(true);
      }
    }
  });

  it('has no `any` in the public declarations, and nothing of the workspace', () => {
    for (const file of filesUnder(outDir).filter((f) => f.endsWith('.d.ts'))) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, relative(outDir, file)).not.toMatch(/\bany\b/);
      expect(code, relative(outDir, file)).not.toMatch(/@payment-qr\/(contract|server)|contract\/src|server\//);
    }
  });

  it('imports no Node built-in from the client code (it also runs in browsers)', () => {
    for (const file of filesUnder(outDir).filter((f) => f.endsWith('.js'))) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        expect(specifier.startsWith('.') || specifier in packageJson.dependencies, `${relative(outDir, file)} imports '${specifier}'`).toBe(true);
      }
    }
  });

  it('bundles for the browser with its dependencies, none of which needs Node', async () => {
    // esbuild (there through tsx) fails on any Node built-in when the platform is the browser.
    const result = await build({ entryPoints: [join(sdkRoot, 'src/index.ts')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    expect(result.errors).toEqual([]);
    const bundle = result.outputFiles[0]?.text ?? '';
    expect(bundle).not.toMatch(/\bprocess\.env\b|require\(["']node:/);
  });
});
