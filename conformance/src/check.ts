import { isDeepStrictEqual } from 'node:util';
import { operationAt } from './contract.js';
import { asMerchant, describeExchange, maskKeys, type Budget, type Exchange, type Send } from './http.js';
import type { Target } from './target.js';

/** What a check needs beyond HTTP to a service; a target that lacks it reports the check as not run here, saying why. */
export type Requirement = 'state' | 'operator' | 'clock' | 'bank' | 'rate-limit' | 'deliveries-wait' | 'receiver';

/** What kind of run has what a requirement asks for: the first words of the reason a check is not run here. */
const WHERE: Record<Requirement, string> = {
  state: 'needs a real service',
  operator: 'needs an in-process run (npm test)',
  clock: 'needs an in-process run (npm test)',
  bank: 'needs an in-process run (npm test)',
  'rate-limit': 'needs an in-process run (npm test)',
  'deliveries-wait': 'needs an in-process run (npm test)',
  receiver: 'needs --receiver-host',
};

/** What a requirement gives, said for a check that does not say what it needs of it. */
const GIVES: Record<Requirement, string> = {
  state: 'the target keeps nothing it is sent (a mock?)',
  operator: "it needs the operator's powers (merchants of its own, a payout account)",
  clock: "it moves the service's clock",
  bank: 'it needs the bank simulator of a BANK=scb service',
  'rate-limit': 'it needs a service limited to 1 request a second on a stopped clock',
  'deliveries-wait': "a deployment's dispatcher attempts deliveries at once, and the pact expects one untouched",
  receiver: 'a receiver the service can reach',
};

export const WHY_NOT_HERE = Object.fromEntries(Object.keys(WHERE).map((r) => [r, `${WHERE[r as Requirement]}: ${GIVES[r as Requirement]}`])) as Record<
  Requirement,
  string
>;

/** What a check needs of each requirement, in its own words: the reason it gives when it is not run here. */
export type Needs = Partial<Record<Requirement, string>>;

/** Not run here for want of `missing`: the kind of run that has it, then what this check needs of it. */
export const notHere = (missing: Requirement, needs?: string): NotRunHere => new NotRunHere(`${WHERE[missing]}: ${needs ?? GIVES[missing]}`, WHERE[missing]);

/** A merchant for one check: the operator's new one (in-process), or the deployment's own key. */
export interface Merchant {
  apiKey: string;
  /** Known only when the operator made it. */
  merchantId?: string;
  /** True when nothing but this run's records is in it. */
  fresh: boolean;
  api: Send;
}

/** Everything a check may use: the target, a bounded client, and what makes this run's keys and records its own. */
export interface Kit {
  target: Target;
  send: Send;
  budget: Budget;
  /** Unique per run: in idempotency keys and references, so that runs against one deployment never collide. */
  runId: string;
  /** fast-check's seed for the generated requests. */
  seed: number;
  /** False when the target keeps nothing it is sent (found out before the checks run). */
  keepsState: boolean;
  /** False when the first request found no service at the address: nothing else is tried. */
  reachable: boolean;
  /** What the service said when it refused the key (403 `permission_denied`), by the operation refused. */
  refusals: Map<string, string>;
  merchant(): Promise<Merchant>;
}

export interface Check {
  name: string;
  requires?: Requirement[];
  /** What it needs of its requirements, said when one is missing (without: the requirement's general words). */
  needs?: Needs;
  run(): Promise<void>;
}

export interface Group {
  name: string;
  title: string;
  checks(kit: Kit): Check[];
  /** After its checks: what the group left on a deployment (its webhooks) is removed. */
  cleanup?(kit: Kit): Promise<void>;
}

/**
 * Why a check that failed was not the service's fault: with a restricted key, a 403 (the key's reach) anywhere in the
 * failure (its own request, a record it set up, the pact verifier's replay) means the check was not run here. The
 * reason names the missing permission as the service said it, for the operation the failure names when it can.
 */
export function outsideRestrictedKey(kit: Kit, failure: string): string | undefined {
  if (!kit.target.apiKey?.startsWith('rk_')) return undefined;
  if (!/(got HTTP|but was) 403\b|"code":"permission_denied"|Expected 'permission_denied'/.test(failure)) return undefined;
  const named = /^(\w+):/.exec(failure)?.[1];
  const said = /lacks the permission '[^']+'/.exec(failure)?.[0] ?? (named && kit.refusals.get(named)) ?? [...kit.refusals.values()][0];
  return `not covered by this restricted key: ${said ? `it ${said}` : `${named ?? 'a request'} answered 403`}`;
}

/** The first requirement the kit's target cannot meet, if any. */
export function unmet(kit: Kit, requires: Requirement[] = []): Requirement | undefined {
  const { target } = kit;
  const has: Record<Requirement, boolean> = {
    state: kit.keepsState,
    operator: target.operator !== undefined,
    clock: target.clock !== undefined,
    bank: target.bank !== undefined,
    'rate-limit': target.rateLimitPerSecond === 1 && target.clock !== undefined,
    'deliveries-wait': target.deliveriesWait === true,
    receiver: target.receiver !== undefined,
  };
  return requires.find((requirement) => !has[requirement]);
}

/** A check that found the service answering otherwise than the contract says: the message says where and how. */
export class CheckFailure extends Error {}
/** The deployment refuses the kit's key itself: nothing can be checked, and the run ends with that one line. */
export class KeyRejected extends Error {}
/**
 * Found out while running: this target cannot run the check (e.g. a deployment refusing the webhook URLs the pact uses).
 * `where`: the kind of run that could (the summary counts the checks by it), when a requirement is what is missing.
 */
export class NotRunHere extends Error {
  constructor(
    message: string,
    readonly where?: string,
  ) {
    super(message);
  }
}

/** Fails the check; with the exchange, the message names its operation (the contract's operationId) and the request. */
export const fail = (what: string, exchange?: Exchange): never => {
  if (!exchange) throw new CheckFailure(maskKeys(what));
  const operationId = operationAt(exchange.method, exchange.path)?.operationId;
  const named = operationId && !what.startsWith(operationId) ? `${operationId}: ${what}` : what;
  throw new CheckFailure(maskKeys(`${named}\n  ${describeExchange(exchange)}`));
};

export function must(condition: unknown, what: string, exchange?: Exchange): asserts condition {
  if (!condition) fail(what, exchange);
}

const shown = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

export function mustEqual(actual: unknown, expected: unknown, what: string, exchange?: Exchange): void {
  if (!isDeepStrictEqual(actual, expected)) fail(`${what}: expected ${shown(expected)}, got ${shown(actual)}`, exchange);
}

/** The status the contract documents for this request; anything else names the operation and what came back. */
export function mustAnswer(operationId: string, exchange: Exchange, status: number): void {
  if (exchange.status !== status) fail(`${operationId}: expected HTTP ${status}, got HTTP ${exchange.status}`, exchange);
}

/** No differences from the contract, or each one named. */
export function mustHaveNoProblems(problems: string[], exchange: Exchange): void {
  if (problems.length > 0) fail(`${problems.join('\n')}`, exchange);
}

/** Work several checks share (records they read), done once, on first use. */
export function once<T>(work: () => Promise<T>): () => Promise<T> {
  let done: Promise<T> | undefined;
  return () => (done ??= work());
}

/** A merchant for a check, given a target: a new one from its operator, else the deployment's key. */
export function merchantOf(target: Target, send: Send): () => Promise<Merchant> {
  return async () => {
    if (target.operator) {
      const { merchantId, apiKey } = await target.operator.newMerchant();
      return { apiKey, merchantId, fresh: true, api: asMerchant(send, apiKey) };
    }
    if (!target.apiKey) throw new Error('the target has neither an operator nor an API key');
    return { apiKey: target.apiKey, fresh: false, api: asMerchant(send, target.apiKey) };
  };
}
