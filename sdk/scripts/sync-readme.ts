// Rewrites each ```ts block of README.md that follows an `<!-- example: examples/NAME.ts -->` line with that
// file's content, so that the README shows exactly the examples CI compiles (tsconfig.json includes
// examples/) and runs (test/readme.test.ts). Run: `node --import tsx scripts/sync-readme.ts`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
const packageRoot = fileURLToPath(new URL('../', import.meta.url));

/** An example marker, then its fenced block. */
export const EXAMPLE_BLOCK = /<!-- example: (examples\/[\w-]+\.ts) -->\n```ts\n([\s\S]*?)```\n/g;

export function syncReadme(readme: string): string {
  return readme.replace(EXAMPLE_BLOCK, (_block, file: string) => {
    const source = readFileSync(`${packageRoot}${file}`, 'utf8');
    return `<!-- example: ${file} -->\n\`\`\`ts\n${source.endsWith('\n') ? source : `${source}\n`}\`\`\`\n`;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(readmePath, syncReadme(readFileSync(readmePath, 'utf8')));
  console.log('sdk: README examples synced');
}
