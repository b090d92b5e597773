import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { CheckFailure, NotRunHere, once, unmet, type Check, type Group, type Kit, type Merchant, type Needs, type Requirement } from '../check.js';
import { operationAt } from '../contract.js';
import { BudgetExhausted, maskKeys } from '../http.js';
import { PACT_FILE, PROVIDER } from '../pact-file.js';
import { removeKitWebhooks } from '../records.js';
import { BEGIN, END, type VerifierJob } from './pact-verifier.js';
import { PROVIDER_STATES, stateContext } from './pact-states.js';

interface Interaction {
  description: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
  request: { method: string; path: string; query?: Record<string, string[]>; body?: { content?: unknown } };
}

/** The interaction's request in a line: method, path, query, and the start of its body. */
function requestLine({ method, path, query, body }: Interaction['request']): string {
  const search = query ? new URLSearchParams(Object.entries(query).flatMap(([name, values]) => values.map((value) => [name, value]))).toString() : '';
  const content = body?.content === undefined ? '' : ` ${JSON.stringify(body.content).slice(0, 80)}`;
  return `${method} ${path}${search ? `?${search}` : ''}${content}`;
}

type Verdict = { outcome: 'passed' } | { outcome: 'failed'; why: string } | { outcome: 'not-run'; why: string };

const VERIFIER = fileURLToPath(new URL('./pact-verifier.ts', import.meta.url));
/** The kit's folder: the child resolves tsx from there, as `npx` does. */
const KIT_DIR = fileURLToPath(new URL('../..', import.meta.url));
/** The pact's webhook URLs: on 127.0.0.1, which a deployment accepts only with WEBHOOK_ALLOW_PRIVATE_URLS=true. */
const PACT_WEBHOOK_URL = 'https://127.0.0.1:8443/hooks/promptpay';

const interactionsOf = (file: string): Interaction[] => (JSON.parse(readFileSync(file, 'utf8')) as { interactions: Interaction[] }).interactions;

const requirementsOf = (interaction: Interaction): Requirement[] => [
  'state',
  ...(interaction.providerStates ?? []).flatMap((state) => PROVIDER_STATES[state.name]?.requires ?? []),
];

/** What the interaction's states need, each named with its request: the reason it gives when it is not run here. */
const needsOf = (interaction: Interaction): Needs =>
  Object.fromEntries(
    (interaction.providerStates ?? []).flatMap((state) => {
      const { requires = [], needs } = PROVIDER_STATES[state.name] ?? {};
      const request = requestLine(interaction.request);
      const params = state.params && Object.keys(state.params).length > 0 ? ` ${JSON.stringify(state.params)}` : '';
      return requires.map((requirement) => [requirement, `${request} needs its state '${state.name}'${params}: ${needs ?? requirement}`]);
    }),
  );

/** What the verifier printed about a failed interaction, from its list of mismatches on. */
function mismatchesIn(report: string): string {
  const text = stripVTControlCharacters(report).trim();
  const from = text.indexOf('Failures:');
  const lines = (from >= 0 ? text.slice(from + 'Failures:'.length) : text)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !/^There (were|was) \d+ pact failures?/.test(line.trim()) && !/ERROR \(\d+\): pact-core/.test(line));
  return lines.join('\n');
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** The provider-state endpoint the verifier calls before each interaction: one merchant per interaction, shared by its states. */
async function startStateServer(kit: Kit, problems: Map<number, Verdict>): Promise<{ url: string; server: Server }> {
  const merchants = new Map<number, Promise<Merchant>>();
  const server = createServer((request, response) => {
    const index = Number(/^\/state\/(\d+)$/.exec(request.url ?? '')?.[1]);
    void (async () => {
      const { state, params, action } = (await readJson(request)) as { state: string; params?: Record<string, unknown>; action?: string };
      if (action === 'teardown') return {};
      const handler = PROVIDER_STATES[state];
      if (!handler) throw new CheckFailure(`the pact names a provider state the kit does not know: '${state}'`);
      if (!merchants.has(index)) merchants.set(index, kit.merchant());
      const merchant = await merchants.get(index)!;
      return { api_key: merchant.apiKey, ...(await handler.setup(stateContext(kit, merchant), params ?? {})) };
    })().then(
      (values) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(values)),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        problems.set(
          index,
          error instanceof NotRunHere ? { outcome: 'not-run', why: message } : { outcome: 'failed', why: `setting up the provider state failed: ${message}` },
        );
        // 422, not 500: Pact's verifier sends a state change again, after a pause, when it answers 5xx (a restricted
        // key's refused setups cost 30 s that way); the verdict comes from `problems`, whatever the verifier makes of it.
        response.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: message }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/state`, server };
}

/** Whether the deployment takes the pact's webhook URLs (on 127.0.0.1); the probe's webhook is deleted at once. */
async function refusesPactWebhookUrls(kit: Kit): Promise<boolean> {
  if (kit.target.operator) return false;
  const merchant = await kit.merchant();
  const probe = await merchant.api('POST', '/Thai/v1/webhooks', { body: { url: PACT_WEBHOOK_URL, events: ['payment.succeeded'] } });
  const webhookId = (probe.json as { webhook_id?: string } | undefined)?.webhook_id;
  if (probe.status === 200 && webhookId) await merchant.api('DELETE', `/Thai/v1/webhooks/${webhookId}`);
  return probe.status === 422 && (probe.json as { error?: { code?: string } } | undefined)?.error?.code === 'invalid_url';
}

/** Runs the verifier over the given interactions in a child process and answers a verdict for each. */
async function verify(kit: Kit, interactions: Interaction[], indices: number[]): Promise<Map<number, Verdict>> {
  const verdicts = new Map<number, Verdict>();
  if (await refusesPactWebhookUrls(kit)) {
    const refused = `which the service refuses (a deployment accepts loopback URLs only with WEBHOOK_ALLOW_PRIVATE_URLS=true)`;
    for (const index of indices) {
      const { request } = interactions[index]!;
      if (request.path.startsWith('/Thai/v1/webhooks'))
        verdicts.set(index, { outcome: 'not-run', why: `${requestLine(request)} needs a webhook on the pact's URL ${PACT_WEBHOOK_URL}, ${refused}` });
    }
  }
  const toVerify = indices.filter((index) => !verdicts.has(index));
  const problems = new Map<number, Verdict>();
  const states = await startStateServer(kit, problems);
  try {
    const job: VerifierJob = {
      pactFile: PACT_FILE,
      provider: PROVIDER,
      providerBaseUrl: kit.target.baseUrl,
      stateUrl: states.url,
      indices: toVerify,
      timeoutMs: kit.budget.limits.timeoutMs,
    };
    // The verifier sends one request per interaction, counted against the run's budget before it starts.
    if (kit.budget.sent + toVerify.length > kit.budget.limits.maxRequests)
      throw new BudgetExhausted(`the run's budget of ${kit.budget.limits.maxRequests} requests is spent`);
    kit.budget.sent += toVerify.length;
    const output = await runChild(['--import', 'tsx', VERIFIER, JSON.stringify(job)], kit.budget.remainingMs());
    for (const index of toVerify) {
      const begin = output.indexOf(`${BEGIN} ${index}\n`);
      const end = /(passed|failed)/.exec(output.slice(output.indexOf(`${END} ${index} `)))?.[1];
      const report = begin >= 0 ? output.slice(begin + `${BEGIN} ${index}\n`.length, output.indexOf(`${END} ${index} `)) : '';
      if (problems.has(index)) verdicts.set(index, problems.get(index)!);
      else if (begin < 0 || output.indexOf(`${END} ${index} `) < 0)
        verdicts.set(index, { outcome: 'failed', why: `the verifier stopped before this interaction:\n${stripVTControlCharacters(output).slice(-2000)}` });
      else if (end === 'passed') verdicts.set(index, { outcome: 'passed' });
      else verdicts.set(index, { outcome: 'failed', why: mismatchesIn(report) });
    }
  } finally {
    await new Promise((resolve) => states.server.close(resolve));
  }
  return verdicts;
}

function runChild(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: KIT_DIR, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

/** Each interaction of the SDK's pact, replayed against the service with its provider states made through the API. */
export const pactGroup: Group = {
  name: 'pact',
  title: "the SDK's pact, verified against the service",
  checks(kit) {
    const interactions = interactionsOf(PACT_FILE);
    const runnable = interactions.map((interaction, index) => ({ interaction, index })).filter(({ interaction }) => !unmet(kit, requirementsOf(interaction)));
    const verdicts = once(() =>
      verify(
        kit,
        interactions,
        runnable.map(({ index }) => index),
      ),
    );
    return interactions.map(
      (interaction, index): Check => ({
        name: interaction.description,
        requires: requirementsOf(interaction),
        needs: needsOf(interaction),
        async run() {
          const verdict = (await verdicts()).get(index);
          if (!verdict) throw new Error(`no verdict for interaction ${index}`);
          if (verdict.outcome === 'not-run') throw new NotRunHere(verdict.why);
          if (verdict.outcome === 'failed') {
            const states = (interaction.providerStates ?? []).map((s) => `'${s.name}'`).join(' and ') || 'no state';
            const { method, path, body } = interaction.request;
            const operationId = operationAt(method, path)?.operationId ?? 'an operation the contract does not list';
            const sent = body?.content === undefined ? '' : ` body ${JSON.stringify(body.content)}`;
            throw new CheckFailure(
              maskKeys(`${operationId}: ${method} ${path}${sent} (given ${states}; ids from the state) differs from the SDK's pact:\n${verdict.why}`),
            );
          }
        },
      }),
    );
  },
  cleanup: removeKitWebhooks,
};
