import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

const require = createRequire(import.meta.url);

/** Prints a page (HTML with everything inline) as an A4 PDF. */
export interface PdfPrinter {
  print(html: string): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * @sparticuz/chromium's flags for a GPU emulated in software (SwiftShader behind ANGLE), left out: nothing here draws
 * with WebGL, and Chromium's own software compositor does the same pages and PDFs for about half the CPU (a checkout
 * page loaded and checked by axe six times: 9.1 to 10.5 CPU s of Chromium with them, 5.1 to 5.4 without).
 */
const EMULATED_GPU = ['--ignore-gpu-blocklist', '--in-process-gpu', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

/**
 * @sparticuz/chromium's `--no-zygote` (for AWS Lambda), left out: without a zygote every renderer (one per browser
 * context, so one per document printed and per page a browser test opens) is a new exec of the whole Chromium binary,
 * loading and initialising it again; with one it is a fork of a process that already did (two browser test files
 * on the 2-core machine, twice each, 2026-11-29: 75 and 70 CPU s with the flag, 42 and 43 without, system time
 * 24 -> 10). `--no-sandbox` stays, which the zygote works with.
 */
const NO_ZYGOTE = '--no-zygote';

/**
 * The headless Chromium from @sparticuz/chromium (installed by `npm ci`, no download), unpacked once into a directory of
 * its version under `unpackRoot` (the temp directory), so that a stale binary of another version is never picked up. The
 * package unpacks into the temp directory and takes a `chromium` file it finds there as done, even one another process
 * is still writing (its launch then fails with ETXTBSY): so each process unpacks into a directory of its own and renames
 * it into place, and the first to finish wins. Its modules load at the first document, not with every server, most of
 * which never print one. `without` leaves more of the package's default arguments out; '--single-process' always goes:
 * such a Chromium dies when a context closes and another opens; so do the emulated GPU (EMULATED_GPU) and NO_ZYGOTE.
 */
export async function launchChromium({ without = [], unpackRoot = tmpdir() }: { without?: readonly string[]; unpackRoot?: string } = {}): Promise<Browser> {
  const [{ default: chromium }, { chromium: playwright }] = await Promise.all([import('@sparticuz/chromium'), import('playwright-core')]);
  const version = (JSON.parse(readFileSync(require.resolve('@sparticuz/chromium').replace(/\/build\/.*$/, '/package.json'), 'utf8')) as { version: string })
    .version;
  const unpacked = join(unpackRoot, `payment-qr-chromium-${version}`);
  if (!existsSync(join(unpacked, 'chromium'))) await unpackInto(unpacked, () => chromium.executablePath());
  const leftOut = ['--single-process', NO_ZYGOTE, ...EMULATED_GPU, ...without];
  const args = [...chromium.args.filter((arg) => !leftOut.includes(arg)), '--disable-gpu'];
  const launch = () => playwright.launch({ executablePath: join(unpacked, 'chromium'), args, headless: true });
  try {
    return await launch();
  } catch (error) {
    if (!diedAtLaunch(error)) throw error;
    return await launch(); // once more; a second death is the caller's error
  }
}

/**
 * Chromium killed by a signal while starting (playwright's "process did exit: exitCode=null, signal=SIGSEGV"): seen
 * once in the test suites' runs of 2026-11-29, some 60 launches in a `.ci/run` and none in 70 more under load, with
 * nothing in Chromium's log. Such a launch left nothing behind, and another one starts.
 */
function diedAtLaunch(error: unknown): boolean {
  return error instanceof Error && /process did exit: exitCode=null, signal=SIG/.test(error.message);
}

/**
 * Runs `unpack` in a new directory beside `target`, then renames that to `target`. The package reads the temp directory
 * only synchronously, when `executablePath()` is called (what it unpacks where), so TMPDIR is pointed at the new
 * directory for that call alone: concurrent launches in one process never see each other's.
 */
async function unpackInto(target: string, unpack: () => Promise<string>): Promise<void> {
  const own = mkdtempSync(`${target}.unpacking-`);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = own;
  let unpacking: Promise<string>;
  try {
    unpacking = unpack();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  try {
    if ((await unpacking) !== join(own, 'chromium')) throw new Error(`Chromium was not unpacked into ${own}`);
    renameSync(own, target);
  } catch (error) {
    rmSync(own, { recursive: true, force: true });
    // Another process (or call) renamed its own first: use that one.
    if (!existsSync(join(target, 'chromium'))) throw error;
  }
}

/** A browser left idle this long is closed: documents come once a month, and Chromium holds a lot of memory. */
const IDLE_CLOSE_MS = 60_000;

/**
 * Prints with headless Chromium, which shapes Thai (marks above and below their consonants) as a browser does, each
 * page in its own context with JavaScript off and the network cut. One browser for every document: started on first
 * use and closed after a minute without prints, or at `close`.
 */
export function chromiumPdfPrinter(): PdfPrinter {
  let browser: Promise<Browser> | null = null;
  let printing = 0;
  let idle: NodeJS.Timeout | undefined;
  const close = async () => {
    clearTimeout(idle);
    const started = browser;
    browser = null;
    await (await started?.catch(() => null))?.close();
  };
  return {
    async print(html) {
      clearTimeout(idle);
      printing += 1;
      try {
        browser ??= launchChromium().catch((error: unknown) => {
          browser = null;
          throw error;
        });
        const context = await (await browser).newContext({ javaScriptEnabled: false, offline: true });
        try {
          const page = await context.newPage();
          await page.setContent(html, { waitUntil: 'load' });
          await page.evaluateHandle('document.fonts.ready').catch(() => undefined);
          return new Uint8Array(await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true }));
        } finally {
          await context.close();
        }
      } finally {
        printing -= 1;
        if (printing === 0) idle = setTimeout(() => void close().catch(() => undefined), IDLE_CLOSE_MS).unref();
      }
    },
    close,
  };
}
