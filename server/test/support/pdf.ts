import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Rendered documents land here (git-ignored), for people to look at. */
export const DOCUMENTS_DIR = new URL('../../test-artifacts/documents/', import.meta.url).pathname;

/** Keeps the PDF as a test artifact and answers its text as poppler's pdftotext reads it (poppler-utils). */
export async function pdfText(pdf: Uint8Array, name: string): Promise<string> {
  mkdirSync(DOCUMENTS_DIR, { recursive: true });
  const file = join(DOCUMENTS_DIR, `${name}.pdf`);
  writeFileSync(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
  return stdout;
}

/** Renders the first page to PNG with pdftoppm beside the PDF (`name`.png), for a person to check the Thai. */
export async function pdfToPng(name: string, dpi = 110): Promise<string> {
  const base = join(DOCUMENTS_DIR, name);
  await run('pdftoppm', ['-png', '-r', String(dpi), '-singlefile', '-f', '1', '-l', '1', `${base}.pdf`, base]);
  return `${base}.png`;
}
