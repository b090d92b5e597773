// The SDK's package: generate, compile (dist/: ES modules and their declarations), add the CommonJS entry. A failing
// step stops the build with its own message, and so does a file named by package.json that the build did not make.
// `npm run build -w sdk` runs it, then TypeDoc (the reference docs, docs/); `npm pack` (prepack) runs it alone: the
// package holds dist/ and the README, not the docs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyContractTypes } from './copy-contract-types.js';

const sdkRoot = fileURLToPath(new URL('../', import.meta.url));
const bin = (name: string): string => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
const run = (name: string, ...args: string[]): void => {
  console.log(`sdk build: ${name} ${args.join(' ')}`);
  execFileSync(bin(name), args, { cwd: sdkRoot, stdio: 'inherit' });
};

/** Every file of dist/ that package.json names (`exports`, `main`, `types`). */
export function filesNamedByManifest(manifest: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node === 'string') found.add(node);
    else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk([manifest.exports, manifest.main, manifest.types]);
  return [...found].filter((file) => file.startsWith('./dist/'));
}

/**
 * `require('@payment-qr/sdk')`: Node >= 20.19 loads ES modules with require(), so the CommonJS entry is the ES
 * build itself (one copy of every class, so `instanceof` holds across both), with declarations in CommonJS form.
 */
const COMMONJS_ENTRY = "'use strict';\n// require(esm), Node >= 20.19: the same module instance as `import`.\nmodule.exports = require('./index.js');\n";
const COMMONJS_DECLARATIONS = "export * from './index.js';\n";

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  copyContractTypes();
  rmSync(join(sdkRoot, 'dist'), { recursive: true, force: true });
  run('tsc', '-p', 'tsconfig.build.json');
  writeFileSync(join(sdkRoot, 'dist/index.cjs'), COMMONJS_ENTRY);
  writeFileSync(join(sdkRoot, 'dist/index.d.cts'), COMMONJS_DECLARATIONS);
  const manifest = JSON.parse(readFileSync(join(sdkRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  const missing = filesNamedByManifest(manifest).filter((file) => !existsSync(join(sdkRoot, file)));
  if (missing.length > 0) throw new Error(`sdk build: package.json names files the build did not make: ${missing.join(', ')}`);
}
