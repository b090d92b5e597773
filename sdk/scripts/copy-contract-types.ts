// Copies the contract's generated wire types into sdk/src/generated, so that the published declarations
// (dist/**/*.d.ts) are self-contained: tsc never inlines types imported from another package, and
// @payment-qr/contract is private and unpublished. Run by `npm run generate -w sdk` (turbo: after the
// contract's own generate). The copy is checked against its source in test/generated-types.test.ts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const contractTypesPath = fileURLToPath(new URL('../../contract/src/generated/openapi.ts', import.meta.url));
export const sdkTypesPath = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
export const copyHeader = '// Copied from contract/src/generated/openapi.ts by sdk/scripts/copy-contract-types.ts. Do not edit.\n';

export function copyContractTypes(): void {
  if (!existsSync(contractTypesPath)) {
    throw new Error(`${contractTypesPath} is missing: run \`npm run generate -w contract\` first.`);
  }
  mkdirSync(fileURLToPath(new URL('../src/generated/', import.meta.url)), { recursive: true });
  writeFileSync(sdkTypesPath, copyHeader + readFileSync(contractTypesPath, 'utf8'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  copyContractTypes();
  console.log(`sdk: copied contract types to ${sdkTypesPath}`);
}
