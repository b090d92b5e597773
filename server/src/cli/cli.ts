import { parseArgs } from 'node:util';
import { createMerchant } from '../app/merchants.js';
import { BANK_USAGE, isBankCommand, runBankCommand } from './bank.js';
import { ApiKeyAdminError } from '../app/api-keys.js';
import { checkKeysCommand, KEYS_USAGE, runKeysCommand } from './keys.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { displayNameProblem } from '../domain/display-name.js';
import { isValidBillerId, isValidPromptPayId, type PromptPayAccount } from '../domain/promptpay-payload.js';
import { openRuntime, runEntryPoint } from '../main.js';
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

async function cli(): Promise<void> {
  const args = process.argv.slice(2);
  const words = args.filter((arg) => !arg.startsWith('-')).slice(0, 2);
  if (isPayoutCommand(words)) return withRuntime((runtime) => runPayoutCommand(runtime.services, args));
  if (isReportsCommand(words)) return withRuntime((runtime) => runReportsCommand(runtime.services, args));
  if (isBankCommand(words) && !args.includes('--help') && !args.includes('-h')) return withRuntime((runtime) => runBankCommand(runtime.services, args));
  if (isUsersCommand(words) && !args.includes('--help') && !args.includes('-h'))
    return withRuntime((runtime) => runUsersCommand(runtime.services, args, serviceBaseUrl(runtime.config)));
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
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
    const runtime = await openRuntime(loadConfig(), {});
    try {
      await runKeysCommand(runtime.services, positionals[1]!, values);
    } catch (error) {
      throw error instanceof ApiKeyAdminError ? new ConfigError(error.message) : error;
    } finally {
      await runtime.close();
    }
    return;
  }
  if (values.help || positionals.join(' ') !== 'merchants create') {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  if (values.name === undefined) throw new ConfigError('--name is required.');
  const nameProblem = displayNameProblem(values.name);
  if (nameProblem) throw new ConfigError(`--name ${nameProblem}.`);
  const config = loadConfig();
  const account = accountFrom(values, config.bank.kind === 'scb');
  const payout = { payoutAccount: payoutAccountFrom(values), feeBps: feeBpsFrom(values['fee-bps']) ?? 0 };
  const runtime = await openRuntime(config, {});
  try {
    const { merchant, apiKey } = await createMerchant(runtime.services, {
      name: values.name.trim(),
      mode: values.live ? 'live' : 'test',
      ...(account ? { account } : {}),
      ...payout,
    });
    if (values.json) console.log(JSON.stringify({ merchant_id: merchant.id, api_key: apiKey }));
    else console.log(`Merchant ${merchant.id} (${merchant.mode}) created.\nAPI key (shown once, stored only as a hash): ${apiKey}`);
  } finally {
    await runtime.close();
  }
}

runEntryPoint(import.meta.url, cli);

/** Where the server answers: PUBLIC_BASE_URL, or the address `npm start` listens on with the same settings. */
const serviceBaseUrl = (config: Config): string =>
  config.publicBaseUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;

async function withRuntime(work: (runtime: Awaited<ReturnType<typeof openRuntime>>) => Promise<void>): Promise<void> {
  const runtime = await openRuntime(loadConfig(), {});
  try {
    await work(runtime);
  } finally {
    await runtime.close();
  }
}
