import { randomBytes } from 'node:crypto';
import { operationAt } from './contract.js';
import { CheckFailure, KeyRejected, merchantOf, notHere, NotRunHere, outsideRestrictedKey, unmet, type Check, type Group, type Kit } from './check.js';
import { keepsWhatItIsSent } from './groups/service.js';
import { GROUPS } from './groups/index.js';
import { Budget, BudgetExhausted, DEFAULT_LIMITS, httpClient, maskKeys, type Limits, type Send } from './http.js';
import type { Target } from './target.js';

export interface Result {
  group: string;
  name: string;
  outcome: 'passed' | 'failed' | 'not-run';
  /** Why it failed, or why it was not run here (that check's own reason). */
  message?: string;
  /** Not run: the kind of run that could run it, when the target lacks a requirement (the summary counts by it). */
  where?: string;
  ms: number;
}

export interface RunOptions {
  target: Target;
  /** Only these groups (the service's own check always runs first). */
  only?: string[];
  limits?: Limits;
  seed?: number;
  onResult?: (result: Result) => void;
  /** At the end: how many requests the run sent (the pact verifier's included) and how long it took. */
  onFinish?: (stats: { requests: number; ms: number }) => void;
}

export const DEFAULT_SEED = 20261120;

/** Builds the kit for a target: its bounded client and a run id of its own. */
export function kitFor(target: Target, options: { limits?: Limits; seed?: number; keepsState?: boolean } = {}): Kit {
  const budget = new Budget(options.limits ?? DEFAULT_LIMITS);
  const sendAny = httpClient(target.baseUrl, budget, target.clock);
  const refusals = new Map<string, string>();
  const send: Send = async (...args) => {
    const exchange = await sendAny(...args);
    const refusal = exchange.status === 403 ? (exchange.json as { error?: { code?: string; message?: string } } | undefined)?.error : undefined;
    const refused = operationAt(exchange.method, exchange.path)?.operationId;
    if (refusal?.code === 'permission_denied' && refusal.message && refused)
      refusals.set(refused, /lacks the permission '[^']+'/.exec(refusal.message)?.[0] ?? refusal.message);
    return exchange;
  };
  return {
    target,
    send,
    budget,
    refusals,
    runId: `kit-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
    seed: options.seed ?? DEFAULT_SEED,
    keepsState: options.keepsState ?? true,
    reachable: true,
    merchant: merchantOf(target, send),
  };
}

/** Runs one check: passed, failed with what differed, or not run here and why. */
export async function runCheck(kit: Kit, group: string, check: Check): Promise<Result> {
  const started = Date.now();
  const result = (outcome: Result['outcome'], message?: string, where?: string): Result => ({
    group,
    name: check.name,
    outcome,
    ...(message ? { message: maskKeys(message) } : {}),
    ...(where ? { where } : {}),
    ms: Date.now() - started,
  });
  const notRun = (error: NotRunHere) => result('not-run', error.message, error.where);
  const missing = unmet(kit, check.requires);
  if (missing) return notRun(notHere(missing, check.needs?.[missing]));
  try {
    await check.run();
    return result('passed');
  } catch (error) {
    if (error instanceof KeyRejected) throw error;
    if (error instanceof NotRunHere) return notRun(error);
    const outside = outsideRestrictedKey(kit, error instanceof Error ? error.message : String(error));
    if (outside) return result('not-run', outside);
    if (error instanceof CheckFailure || error instanceof BudgetExhausted) return result('failed', error.message);
    return result('failed', error instanceof Error ? error.message : String(error));
  }
}

export const groupNames = (): string[] => GROUPS.map((group) => group.name);

/** Every check of the chosen groups against one target, one after the other; what a group left behind is removed after it. */
export async function runKit(options: RunOptions): Promise<Result[]> {
  const unknown = (options.only ?? []).filter((name) => !GROUPS.some((group) => group.name === name));
  if (unknown.length > 0) throw new Error(`unknown group ${unknown.join(', ')} (groups: ${groupNames().join(', ')})`);
  const started = Date.now();
  const kit = kitFor(options.target, { limits: options.limits, seed: options.seed });
  const results: Result[] = [];
  const record = (result: Result) => {
    results.push(result);
    options.onResult?.(result);
  };
  // The probe may find that the target keeps nothing (kit.keepsState), which the later checks' requirements read.
  record(await runCheck(kit, 'service', keepsWhatItIsSent(kit)));
  if (!kit.reachable) return results;
  const chosen: Group[] = GROUPS.filter((group) => !options.only?.length || options.only.includes(group.name));
  for (const group of chosen) {
    for (const check of group.checks(kit)) record(await runCheck(kit, group.name, check));
    await group.cleanup?.(kit).catch(() => undefined);
  }
  options.onFinish?.({ requests: kit.budget.sent, ms: Date.now() - started });
  return results;
}
