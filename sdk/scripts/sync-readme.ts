// Rewrites each fenced block of a README that follows an `<!-- example: examples/NAME.ts -->` line (in the root
// README: `sdk/examples/NAME.mjs`) with that file's content, so that the READMEs show exactly the examples CI
// compiles (tsconfig.json includes examples/) and runs (test/readme.test.ts against the real server,
// conformance's Prism test against the mock). Run: `node --import tsx scripts/sync-readme.ts`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
export const rootReadmePath = fileURLToPath(new URL('../../README.md', import.meta.url));
const packageRoot = fileURLToPath(new URL('../', import.meta.url));

/** An example marker, then its fenced block (`ts` for TypeScript, `js` for .mjs and .cjs). */
export const EXAMPLE_BLOCK = /<!-- example: ((?:sdk\/)?examples\/[\w-]+\.(?:ts|mjs|cjs)) -->\n```(?:ts|js)\n([\s\S]*?)```\n/g;

/** The path of an example file, as a README names it, relative to the SDK package. */
export const exampleFile = (named: string): string => named.replace(/^sdk\//, '');

export function syncReadme(readme: string): string {
  return readme.replace(EXAMPLE_BLOCK, (_block, file: string) => {
    const source = readFileSync(`${packageRoot}${exampleFile(file)}`, 'utf8');
    const language = file.endsWith('.ts') ? 'ts' : 'js';
    return `<!-- example: ${file} -->\n\`\`\`${language}\n${source.endsWith('\n') ? source : `${source}\n`}\`\`\`\n`;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const path of [readmePath, rootReadmePath]) writeFileSync(path, syncReadme(readFileSync(path, 'utf8')));
  console.log('sdk: README examples synced (sdk/README.md, README.md)');
}
