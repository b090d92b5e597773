/**
 * A child process of the kit: Pact's verifier, one interaction at a time, its report between markers on stdout (the
 * native verifier prints there itself). Provider states are set up by the parent, at `${stateUrl}/${index}`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type { VerifierOptions } from '@pact-foundation/pact-core';

export const BEGIN = '@@payment-qr-conformance begin';
export const END = '@@payment-qr-conformance end';

export interface VerifierJob {
  pactFile: string;
  provider: string;
  providerBaseUrl: string;
  stateUrl: string;
  indices: number[];
  timeoutMs: number;
}

async function main(job: VerifierJob): Promise<void> {
  // CommonJS whose types describe an ES default export: required, the Pact instance is what `module.exports` holds.
  const pact = createRequire(import.meta.url)('@pact-foundation/pact-core') as { verifyPacts(options: VerifierOptions): Promise<string> };
  const whole = JSON.parse(readFileSync(job.pactFile, 'utf8')) as { interactions: unknown[] };
  const dir = mkdtempSync(join(tmpdir(), 'payment-qr-conformance-pact-'));
  try {
    for (const index of job.indices) {
      const file = join(dir, `${index}.json`);
      writeFileSync(file, JSON.stringify({ ...whole, interactions: [whole.interactions[index]] }));
      writeSync(1, `\n${BEGIN} ${index}\n`);
      const outcome = await pact
        .verifyPacts({
          provider: job.provider,
          providerBaseUrl: job.providerBaseUrl,
          pactUrls: [file],
          providerStatesSetupUrl: `${job.stateUrl}/${index}`,
          providerStatesSetupBody: true,
          providerStatesSetupTeardown: false,
          timeout: job.timeoutMs,
          logLevel: 'error',
        })
        .then(
          () => 'passed',
          () => 'failed',
        );
      writeSync(1, `\n${END} ${index} ${outcome}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(JSON.parse(process.argv[2]!) as VerifierJob);
