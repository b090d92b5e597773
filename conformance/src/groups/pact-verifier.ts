/**
 * A child process of the kit: Pact's verifier, one interaction at a time, its report between markers on stdout (the
 * native verifier prints there itself). Provider states are set up by the parent, at `${stateUrl}/${index}`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pact from '@pact-foundation/pact-core';

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
  const whole = JSON.parse(readFileSync(job.pactFile, 'utf8')) as { interactions: unknown[] };
  const dir = mkdtempSync(join(tmpdir(), 'payment-qr-conformance-pact-'));
  try {
    for (const index of job.indices) {
      const file = join(dir, `${index}.json`);
      writeFileSync(file, JSON.stringify({ ...whole, interactions: [whole.interactions[index]] }));
      writeSync(1, `\n${BEGIN} ${index}\n`);
      // The package's default export is the Pact instance; as an ES module import it sits under `default`.
      const outcome = await pact.default
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
