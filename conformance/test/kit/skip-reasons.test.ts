import { expect, it } from 'vitest';
import { unmet, WHY_NOT_HERE } from '../../src/check.js';
import { GROUPS } from '../../src/groups/index.js';
import { lineOf, summaryOf } from '../../src/report.js';
import { kitFor, runCheck, type Result } from '../../src/run.js';

// QA's run against a deployment: a URL and a sandbox key only (no operator, clock, bank simulator, receiver). Every
// check the target cannot run is reported with its own reason, not one sentence shared by many. Nothing is sent: a
// check whose requirement is missing is reported without running.
const kit = kitFor({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_skip_reasons_0000' });

async function skippedHere(): Promise<Result[]> {
  const results: Result[] = [];
  for (const group of GROUPS) for (const check of group.checks(kit)) if (unmet(kit, check.requires)) results.push(await runCheck(kit, group.name, check));
  return results;
}

it('gives every check not run against a deployment a reason of its own, naming what that check needs', async () => {
  const skipped = await skippedHere();
  expect(skipped.length).toBeGreaterThan(80);
  expect(skipped.every((result) => result.outcome === 'not-run')).toBe(true);

  const byReason = new Map<string, string[]>();
  for (const result of skipped) byReason.set(result.message!, [...(byReason.get(result.message!) ?? []), `${result.group} › ${result.name}`]);
  const shared = [...byReason].filter(([, checks]) => checks.length > 1);
  expect(shared, 'reasons shared by several checks').toEqual([]);
  // None falls back on a requirement's general words: each says what it needs the missing thing for.
  expect(skipped.filter((result) => Object.values(WHY_NOT_HERE).includes(result.message!)).map((result) => result.name)).toEqual([]);

  const forbidden = skipped.find((result) => result.name === 'listPayments 403');
  expect(lineOf(forbidden!)).toBe(
    'SKIP  errors › listPayments 403: needs an in-process run (npm test): its 403 needs GET /Thai/v1/payments sent with a restricted key holding only events:read (the operator issues it)',
  );
});

it('counts what was not run by the kind of run that could, the reasons being on the SKIP lines', async () => {
  const skipped = await skippedHere();
  const summary = summaryOf(skipped).split('\n');
  const where = (text: string) => skipped.filter((result) => result.where === text).length;
  expect(summary).toEqual([
    `${skipped.length} not run here (each SKIP line says why):`,
    `  ${where('needs an in-process run (npm test)')} needs an in-process run (npm test)`,
    `  ${where('needs --receiver-host')} needs --receiver-host`,
    '0 passed, 0 failed',
  ]);
  expect(where('needs --receiver-host')).toBe(4);
});
