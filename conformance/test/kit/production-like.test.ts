import { afterAll, expect, it } from 'vitest';
import { runKit } from '../../src/run.js';
import { startBuiltServer } from '../support/built-server.js';

// A deployment as production runs it: webhook URLs on private addresses (the pact's, the kit's) are refused.
const server = await startBuiltServer({ privateWebhookUrls: false });
afterAll(() => server.stop());

it('reports what needs private webhook URLs as not run here, and fails nothing for it', async () => {
  const results = await runKit({ target: { baseUrl: server.url, apiKey: server.apiKey }, only: ['pact', 'pagination'] });
  const shown = results.map((r) => `${r.outcome} ${r.group} › ${r.name}${r.message ? `: ${r.message}` : ''}`).join('\n');
  expect(
    results.filter((r) => r.outcome === 'failed'),
    shown,
  ).toEqual([]);
  const refused = results.filter((r) => r.outcome === 'not-run' && /WEBHOOK_ALLOW_PRIVATE_URLS=true/.test(r.message ?? ''));
  expect(refused.map((r) => r.name)).toEqual(
    expect.arrayContaining(['a request to register a webhook endpoint', 'listWebhooks: newest first, ties by id descending, every match counted in total']),
  );
  expect(results.some((r) => r.outcome === 'passed' && r.name.startsWith('listPayments: '))).toBe(true);
}, 300_000);
