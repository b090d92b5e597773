// Copies the contract's generated wire types into sdk/src/generated, so that the published declarations
// (dist/**/*.d.ts) are self-contained: tsc never inlines types imported from another package, and
// @payment-qr/contract is private and unpublished. Run by `npm run generate -w sdk` (turbo: after the
// contract's own generate) and by `npm run build -w sdk`, which generates the contract's types first when they
// are missing or older than openapi.yaml. The copy is checked against its source in test/package.test.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const contractTypesPath = fileURLToPath(new URL('../../contract/src/generated/openapi.ts', import.meta.url));
export const sdkTypesPath = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
export const copyHeader = '// Copied from contract/src/generated/openapi.ts by sdk/scripts/copy-contract-types.ts. Do not edit.\n';
const contractSourcePath = fileURLToPath(new URL('../../contract/openapi.yaml', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the contract's generate unless its output is there and newer than openapi.yaml. */
function ensureContractTypes(): void {
  if (existsSync(contractTypesPath) && statSync(contractTypesPath).mtimeMs >= statSync(contractSourcePath).mtimeMs) return;
  execFileSync('npm', ['run', 'generate', '-w', '@payment-qr/contract'], { cwd: repoRoot, stdio: 'inherit' });
  if (!existsSync(contractTypesPath)) throw new Error(`${contractTypesPath} is still missing after \`npm run generate -w @payment-qr/contract\`.`);
}

export function copyContractTypes(): void {
  ensureContractTypes();
  const copy = copyHeader + readFileSync(contractTypesPath, 'utf8');
  // Written only when it changed: under turbo other tasks may be reading it.
  if (existsSync(sdkTypesPath) && readFileSync(sdkTypesPath, 'utf8') === copy) return;
  mkdirSync(fileURLToPath(new URL('../src/generated/', import.meta.url)), { recursive: true });
  writeFileSync(sdkTypesPath, copy);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  copyContractTypes();
  console.log(`sdk: contract types copied to ${sdkTypesPath}`);
}
