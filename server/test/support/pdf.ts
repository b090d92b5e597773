import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as mupdf from 'mupdf';
import { DOCS_IMAGES_DIR } from './browser.js';

/** Rendered documents land here (git-ignored), for people to look at. */
export const DOCUMENTS_DIR = new URL('../../test-artifacts/documents/', import.meta.url).pathname;

/** A line of text as MuPDF's structured text gives it: where its baseline starts, and what it says. */
type TextLine = { x: number; y: number; text: string };
type StructuredText = { blocks: { lines?: TextLine[] }[] };

/** Lines whose baselines lie this close (in points) read as one row, as a table's label and its amount do. */
const SAME_ROW = 2;

/**
 * Keeps the PDF as a test artifact and answers its text as MuPDF (the WebAssembly build on npm) reads it: each page in
 * rows, top to bottom, the lines that share a baseline joined left to right with a tab, so a label and its amount read
 * on one line as the eye reads them. MuPDF spells the Thai as it was typed: Chromium draws some clusters with glyphs that
 * are not their letters one for one (ำ as ํ and า, a tone mark raised over a vowel) and gives their letters in
 * /ActualText, which MuPDF reads.
 */
export function pdfText(pdf: Uint8Array, name: string): string {
  mkdirSync(DOCUMENTS_DIR, { recursive: true });
  writeFileSync(join(DOCUMENTS_DIR, `${name}.pdf`), pdf);
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  const pages: string[] = [];
  for (let number = 0; number < document.countPages(); number++) pages.push(rowsOf(document.loadPage(number)).join('\n'));
  return pages.join('\f');
}

/** A page's lines grouped by baseline, top to bottom, each row read left to right. */
function rowsOf(page: mupdf.Page): string[] {
  const { blocks } = JSON.parse(page.toStructuredText('').asJSON()) as StructuredText;
  const rows: { y: number; lines: TextLine[] }[] = [];
  for (const line of blocks.flatMap((block) => block.lines ?? []).sort((a, b) => a.y - b.y)) {
    const row = rows.at(-1);
    if (row && line.y - row.y <= SAME_ROW) row.lines.push(line);
    else rows.push({ y: line.y, lines: [line] });
  }
  const leftToRight = (a: TextLine, b: TextLine) => a.x - b.x;
  return rows.map(({ lines }) =>
    lines
      .sort(leftToRight)
      .map(({ text }) => text)
      .join('\t'),
  );
}

/** The PNG's resolution: an A4 page 909 pixels wide, as the README shows it. */
const DPI = 110;

/**
 * Renders the first page of a kept PDF to PNG beside it (`name`.png), for a person to check the Thai; with `docs` and
 * UPDATE_DOCS_IMAGES=1 also as the README's picture of that name.
 */
export function pdfToPng(name: string, options: { docs?: boolean } = {}): string {
  const base = join(DOCUMENTS_DIR, name);
  const page = mupdf.Document.openDocument(readFileSync(`${base}.pdf`), 'application/pdf').loadPage(0);
  const png = page.toPixmap(mupdf.Matrix.scale(DPI / 72, DPI / 72), mupdf.ColorSpace.DeviceRGB).asPNG();
  writeFileSync(`${base}.png`, png);
  if (options.docs && process.env.UPDATE_DOCS_IMAGES === '1') writeFileSync(join(DOCS_IMAGES_DIR, `${name}.png`), png);
  return `${base}.png`;
}
