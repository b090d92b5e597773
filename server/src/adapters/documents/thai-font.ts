import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Noto Sans Thai from the npm package the checkout page serves, embedded in the page as data: the PDF carries the glyphs it uses. */
export function fontFaces(): string {
  const files = join(dirname(require.resolve('@fontsource/noto-sans-thai/package.json')), 'files');
  const ranges = JSON.parse(readFileSync(join(files, '..', 'unicode.json'), 'utf8')) as Record<string, string>;
  return ['thai', 'latin', 'latin-ext']
    .map((subset) => [subset, ranges[subset]] as const)
    .flatMap(([subset, range]) =>
      [400, 700].map((weight) => {
        const font = readFileSync(join(files, `noto-sans-thai-${subset}-${weight}-normal.woff2`)).toString('base64');
        return `@font-face { font-family: 'Noto Sans Thai'; font-weight: ${weight}; src: url(data:font/woff2;base64,${font}) format('woff2'); unicode-range: ${range}; }`;
      }),
    )
    .join('\n');
}
