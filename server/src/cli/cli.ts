import { parseArgs } from 'node:util';
import { createMerchant } from '../app/merchants.js';
import { BANK_USAGE, isBankCommand, runBankCommand } from './bank.js';
import { ApiKeyAdminError } from '../app/api-keys.js';
import { checkKeysCommand, KEYS_USAGE, runKeysCommand } from './keys.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { displayNameProblem } from '../domain/display-name.js';
import { isValidBillerId, isValidPromptPayId, type PromptPayAccount } from '../domain/promptpay-payload.js';
import { openRuntime, runEntryPoint } from '../main.js';
import { processOutput, type CliOutput } from './output.js';
import { isUsersCommand, runUsersCommand, USERS_USAGE } from './users.js';
import { isReportsCommand, REPORTS_USAGE, runReportsCommand } from './reports.js';
import { feeBpsFrom, isPayoutCommand, PAYOUT_USAGE, payoutAccountFrom, payoutOptions, runPayoutCommand } from './payouts.js';

const USAGE = `usage: npm run cli -- merchants create --name NAME [--promptpay-id ID | --biller-id ID] [--live] [--json]
         [--bank-code CODE --account-number DIGITS --account-name NAME] [--fee-bps N]
${BANK_USAGE}
${PAYOUT_USAGE}
${REPORTS_USAGE}
${KEYS_USAGE}
${USERS_USAGE}

  --name          the merchant's name: at most 100 characters, no control characters (as --account-name)
  --promptpay-id  the merchant's PromptPay id: a 10-digit mobile number, 13-digit tax id or 15-digit e-wallet id
                  (without it, a test merchant's QR codes name a PromptPay id no bank can hold)
  --biller-id     a 15-digit PromptPay biller id (bill payment, tag 30) instead
  --live          issue a live key (sk_live_...); with BANK=scb its QR codes pay the operator's biller id, so no id is
                  needed (the bank settings must be set for the CLI too); without it, give a PromptPay or biller id
  --json          print {"merchant_id", "api_key"} only
Runs against DATABASE_URL when set, otherwise the embedded database in .data/ (stop the server first).`;

/** The merchant's own PromptPay account; none for a live merchant on a deployment with a bank connection (it pays the operator's biller id). */
function accountFrom(values: { 'promptpay-id'?: string; 'biller-id'?: string; live?: boolean }, bankConnected: boolean): PromptPayAccount | undefined {
  const promptPayId = values['promptpay-id'];
  const billerId = values['biller-id'];
  if (promptPayId && billerId) throw new ConfigError('give --promptpay-id or --biller-id, not both.');
  if (billerId) {
    if (!isValidBillerId(billerId)) throw new ConfigError(`--biller-id '${billerId}' must be 15 digits.`);
    return { kind: 'biller_id', billerId };
  }
  if (promptPayId) {
    if (!isValidPromptPayId(promptPayId))
      throw new ConfigError(`--promptpay-id '${promptPayId}' must be a 10-digit mobile number, 13-digit tax id or 15-digit e-wallet id.`);
    return { kind: 'promptpay_id', id: promptPayId };
  }
  if (values.live && bankConnected) return undefined;
  if (values.live)
    throw new ConfigError(
      '--live needs BANK=scb (the bank connection: live QR codes are bill payments to the operator\'s biller id; see the README, "Going live"), or the merchant\'s own --promptpay-id or --biller-id.',
    );
  return undefined; // a test merchant's QR codes then name a PromptPay id no bank can hold
}

/**
 * One CLI command: `args` as after `npm run cli --`, settings from `env`, printed to `output`; resolves with the exit
 * code (a refusal prints `error: ...` and is 1; a usage error 2). The bin runs it on the process's own; tests call it
 * in their process (test/support/cli-process.ts), and test/cli.test.ts spawns the bin.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = process.env, output: CliOutput = processOutput): Promise<number> {
  try {
    return await command(args, env, output);
  } catch (error) {
    output.err(error instanceof Error ? `error: ${error.message}` : String(error));
    return 1;
  }
}

async function command(args: string[], env: NodeJS.ProcessEnv, output: CliOutput): Promise<number> {
  const words = args.filter((arg) => !arg.startsWith('-')).slice(0, 2);
  const withRuntime = async (work: (runtime: Awaited<ReturnType<typeof openRuntime>>) => Promise<void>, config = loadConfig(env)): Promise<number> => {
    const runtime = await openRuntime(config, {});
    try {
      await work(runtime);
      return 0;
    } finally {
      await runtime.close();
    }
  };
  if (isPayoutCommand(words)) return withRuntime((runtime) => runPayoutCommand(runtime.services, args, output));
  if (isReportsCommand(words)) return withRuntime((runtime) => runReportsCommand(runtime.services, args, output));
  if (isBankCommand(words) && !args.includes('--help') && !args.includes('-h')) return withRuntime((runtime) => runBankCommand(runtime.services, args, output));
  if (isUsersCommand(words) && !args.includes('--help') && !args.includes('-h'))
    return withRuntime((runtime) => runUsersCommand(runtime.services, args, serviceBaseUrl(runtime.config), output));
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'promptpay-id': { type: 'string' },
      'biller-id': { type: 'string' },
      live: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'expire-old-in': { type: 'string' },
      'key-last4': { type: 'string' },
      permissions: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...payoutOptions,
    },
  });
  if (positionals[0] === 'keys' && positionals.length === 2 && !values.help) {
    checkKeysCommand(positionals[1]!, values);
    return withRuntime(async (runtime) => {
      try {
        await runKeysCommand(runtime.services, positionals[1]!, values, output);
      } catch (error) {
        throw error instanceof ApiKeyAdminError ? new ConfigError(error.message) : error;
      }
    });
  }
  if (values.help || positionals.join(' ') !== 'merchants create') {
    output.out(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.name === undefined) throw new ConfigError('--name is required.');
  const nameProblem = displayNameProblem(values.name);
  if (nameProblem) throw new ConfigError(`--name ${nameProblem}.`);
  const config = loadConfig(env);
  const account = accountFrom(values, config.bank.kind === 'scb');
  const payout = { payoutAccount: payoutAccountFrom(values), feeBps: feeBpsFrom(values['fee-bps']) ?? 0 };
  return withRuntime(async (runtime) => {
    const { merchant, apiKey } = await createMerchant(runtime.services, {
      name: values.name!.trim(),
      mode: values.live ? 'live' : 'test',
      ...(account ? { account } : {}),
      ...payout,
    });
    if (values.json) output.out(JSON.stringify({ merchant_id: merchant.id, api_key: apiKey }));
    else output.out(`Merchant ${merchant.id} (${merchant.mode}) created.\nAPI key (shown once, stored only as a hash): ${apiKey}`);
  }, config);
}

runEntryPoint(import.meta.url, async () => {
  const code = await runCli(process.argv.slice(2));
  if (code !== 0) process.exit(code);
});

/** Where the server answers: PUBLIC_BASE_URL, or the address `npm start` listens on with the same settings. */
const serviceBaseUrl = (config: Config): string =>
  config.publicBaseUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
