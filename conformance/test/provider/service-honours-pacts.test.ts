import { existsSync } from 'node:fs';
import { Verifier } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACT_FILE, PROVIDER } from '../support/pact.js';
import { providerStates } from '../support/provider-states.js';
import { startService, type Service } from '../support/service.js';

interface VerificationReport {
  errors?: { interaction: string; mismatch: { mismatches?: { mismatch: string; path?: string; key?: string }[]; message?: string } }[];
}

/** The verifier reports as one JSON blob; this names each failing interaction and what differed. */
function explain(error: unknown): Error {
  const text = error instanceof Error ? error.message : String(error);
  try {
    const report = JSON.parse(text) as VerificationReport;
    const lines = (report.errors ?? []).flatMap(({ interaction, mismatch }) => [
      `- ${interaction.replace(/^Verifying a pact between \S+ and \S+ /, '')}`,
      ...(mismatch.mismatches ?? [{ mismatch: mismatch.message ?? 'failed' }]).map((m) => `    ${m.path ?? m.key ?? ''} ${m.mismatch}`),
    ]);
    return new Error(`The service broke ${report.errors?.length ?? 0} interaction(s) the SDK relies on:\n${lines.join('\n')}`);
  } catch {
    return error instanceof Error ? error : new Error(text);
  }
}

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

describe('the service, verified against the pacts the SDK wrote', () => {
  it('honours every interaction (provider states seed through the use cases)', async () => {
    expect(existsSync(PACT_FILE), `no pact at ${PACT_FILE}: run the consumer tests first`).toBe(true);
    const verifier = new Verifier({
      provider: PROVIDER,
      providerBaseUrl: service.url,
      pactUrls: [PACT_FILE],
      stateHandlers: providerStates(service),
      logLevel: 'warn',
    });
    await verifier.verifyProvider().catch((error: unknown) => {
      throw explain(error);
    });
  });
});
