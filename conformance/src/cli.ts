import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS, maskKeys, type Limits } from './http.js';
import { KeyRejected } from './check.js';
import { lineOf, summaryOf, writeJunit } from './report.js';
import { DEFAULT_SEED, groupNames, runKit } from './run.js';
import type { Target } from './target.js';

const USAGE = `usage: PAYMENT_QR_API_KEY=sk_test_... npm run conformance -- --base-url URL [options]
       npx payment-qr-conformance --base-url URL --api-key sk_test_... [options]

Checks a deployment over HTTP only against the contract and the SDK's pact, with a sandbox key.

  --base-url URL        the deployment's base, e.g. https://staging.example.com (the API is under /Thai/v1 there)
  --api-key KEY         a sandbox key: secret (sk_test_...) or restricted (rk_test_..., the checks its permissions
                        do not cover are reported as not run); a live key is refused before any request.
                        Default: the environment's PAYMENT_QR_API_KEY (so npm's banner never shows the key)
  --junit FILE          also write JUnit XML for CI
  --receiver-host HOST  start a webhook receiver bound to HOST (an address the deployment can reach)
                        and check deliveries and their Standard Webhooks signatures
  --receiver-port N     its port (default: any free one)
  --receiver-url URL    the URL the deployment should deliver to, when not http://HOST:PORT (a tunnel)
  --only GROUP          only these groups (repeat, or comma-separate): ${groupNames().join(', ')}
  --seed N              fast-check's seed for the generated requests (default ${DEFAULT_SEED})
  --timeout-ms N        each request's time limit (default ${DEFAULT_LIMITS.timeoutMs})
  --max-requests N      requests the whole run may send (default ${DEFAULT_LIMITS.maxRequests})
  --max-minutes N       the whole run's time limit (default ${DEFAULT_LIMITS.totalMs / 60_000})

Prints one line per check and a summary line "N passed, M failed"; exits 1 on any failure, 2 on bad usage
or a key the deployment rejects.
Without --base-url, \`npm run conformance\` runs the same checks in-process (it starts its own server).`;

class UsageError extends Error {}

const positive = (text: string | undefined, name: string, fallback: number): number => {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${name}: '${text}' must be a positive integer`);
  return value;
};

interface Options {
  target: Target;
  only: string[];
  junit?: string;
  seed: number;
  limits: Limits;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      junit: { type: 'string' },
      'receiver-host': { type: 'string' },
      'receiver-port': { type: 'string' },
      'receiver-url': { type: 'string' },
      only: { type: 'string', multiple: true },
      seed: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'max-requests': { type: 'string' },
      'max-minutes': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const apiKey = values['api-key'] ?? env.PAYMENT_QR_API_KEY;
  if (!apiKey) throw new UsageError('a sandbox key is required: PAYMENT_QR_API_KEY=sk_test_... or --api-key');
  // Refused before any request: the kit makes payments, refunds, withdrawals and webhooks.
  if (/^(sk|rk)_live_/.test(apiKey))
    throw new UsageError(
      `refused: ${maskKeys(apiKey)} is a live key; the kit makes payments, refunds and webhooks, so it takes a sandbox key (sk_test_...) only`,
    );
  if (!/^(sk|rk)_test_/.test(apiKey))
    throw new UsageError(`the key ${maskKeys(apiKey)} is not a sandbox secret or restricted key (sk_test_... or rk_test_...)`);
  const baseUrl = values['base-url'];
  if (!baseUrl) throw new UsageError('--base-url is required');
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url: '${baseUrl}' is not a URL`);
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) throw new UsageError(`--base-url: '${baseUrl}' must be http or https`);
  const only = (values.only ?? [])
    .flatMap((name) => name.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only.filter((name) => !groupNames().includes(name));
  if (unknown.length) throw new UsageError(`--only: unknown group ${unknown.join(', ')} (groups: ${groupNames().join(', ')})`);
  const host = values['receiver-host'];
  if (!host && (values['receiver-port'] || values['receiver-url'])) throw new UsageError('--receiver-port and --receiver-url need --receiver-host');
  const receiverPort = values['receiver-port'] === undefined ? 0 : positive(values['receiver-port'], '--receiver-port', 0);
  return {
    target: {
      baseUrl: parsed.href.replace(/\/+$/, ''),
      apiKey,
      ...(host ? { receiver: { host, port: receiverPort, ...(values['receiver-url'] ? { publicUrl: values['receiver-url'] } : {}) } } : {}),
    },
    only,
    ...(values.junit ? { junit: values.junit } : {}),
    seed: values.seed === undefined ? DEFAULT_SEED : positive(values.seed, '--seed', DEFAULT_SEED),
    limits: {
      timeoutMs: positive(values['timeout-ms'], '--timeout-ms', DEFAULT_LIMITS.timeoutMs),
      maxRequests: positive(values['max-requests'], '--max-requests', DEFAULT_LIMITS.maxRequests),
      totalMs: positive(values['max-minutes'], '--max-minutes', DEFAULT_LIMITS.totalMs / 60_000) * 60_000,
    },
  };
}

/** The command: returns the exit code (0 all passed, 1 a check failed, 2 bad usage). */
export async function main(argv: string[], out: (line: string) => void = console.log, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv, env);
  } catch (error) {
    out(`payment-qr-conformance: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    out(USAGE);
    return 0;
  }
  const { target, only, junit, seed, limits } = options;
  out(`payment-qr-conformance: checking ${target.baseUrl} with ${maskKeys(target.apiKey!)}${only.length ? ` (only ${only.join(', ')})` : ''}`);
  let results;
  try {
    results = await runKit({
      target,
      only,
      seed,
      limits,
      onResult: (result) => out(lineOf(result)),
      onFinish: ({ requests, ms }) => out(`${requests} requests in ${Math.round(ms / 1000)} s`),
    });
  } catch (error) {
    if (!(error instanceof KeyRejected)) throw error;
    out(`payment-qr-conformance: ${error.message}`);
    return 2;
  }
  if (junit) writeJunit(results, junit);
  out(summaryOf(results));
  return results.some((result) => result.outcome === 'failed') ? 1 : 0;
}
