// The SDK as a merchant gets it: `npm pack`, installed into a scratch ES module project and a scratch CommonJS
// project (from the npm cache; no workspace links), type-checked there and run against the real service.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PaymentQrClient } from '@payment-qr/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../support/in-process.js';

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('../../../sdk/', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

/** Compiles only if the package's types resolve for this kind of module, and are the contract's. */
const TYPE_CHECK = `import { PaymentDeclinedError, PaymentQrClient, type QrCode } from '@payment-qr/sdk';

const client = new PaymentQrClient({ apiKey: 'sk_test_types', baseUrl: 'https://payment-qr.example.com' });
export const created: Promise<QrCode> = client.qrCodes.create({ amount: 15_000, currency: 'THB' });
// @ts-expect-error the contract allows THB only
export const wrong = client.qrCodes.create({ amount: 15_000, currency: 'USD' });
export const declined = (error: unknown): boolean => error instanceof PaymentDeclinedError;
`;

const PROJECTS = [
  { kind: 'ES module', type: 'module', example: 'esm.mjs', typeCheck: 'check.ts' },
  { kind: 'CommonJS', type: 'commonjs', example: 'commonjs.cjs', typeCheck: 'check.cts' },
] as const;

describe('the packed SDK, installed from its tarball', () => {
  let service: Service;
  let apiKey: string;
  let scratch: string;
  let tarball: string;

  beforeAll(async () => {
    service = await startService();
    ({ apiKey } = await service.target.operator!.newMerchant());
    scratch = mkdtempSync(join(tmpdir(), 'payment-qr-packed-sdk-'));
    // The build made dist/ (turbo: ^build); --ignore-scripts packs it as it is.
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: sdkDir });
    tarball = join(scratch, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it.each(PROJECTS)(
    'works in a scratch $kind project: types, then one call to the real service',
    async ({ type, example, typeCheck }) => {
      const project = join(scratch, type);
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `scratch-${type}`, private: true, type }));
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', tarball], { cwd: project });

      writeFileSync(join(project, typeCheck), TYPE_CHECK);
      const compilerOptions = { module: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['ES2023', 'DOM'] };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [typeCheck] }));
      await expect(
        run(process.execPath, [tsc, '-p', project]).then(() => 'compiles'),
        'the installed types',
      ).resolves.toBe('compiles');

      copyFileSync(join(sdkDir, 'examples', example), join(project, example));
      const { stdout } = await run(process.execPath, [example], {
        cwd: project,
        env: { ...process.env, PAYMENT_QR_API_KEY: apiKey, PAYMENT_QR_BASE_URL: service.url },
      });
      const [, paymentId] = /^QR code qr_\w+ for payment (pay_\w+): pending\n$/.exec(stdout) ?? [];
      expect(paymentId, stdout).toBeDefined();
      const payment = await new PaymentQrClient({ apiKey, baseUrl: service.url }).payments.retrieve(paymentId!);
      expect(payment).toMatchObject({ amount: 15_000, currency: 'THB', reference: 'ORDER-1001', status: 'pending' });
    },
    180_000,
  );
});
