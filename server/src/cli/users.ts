import { parseArgs } from 'node:util';
import { invitationUrl } from '../adapters/dashboard/urls.js';
import { inviteAsOperator } from '../app/invitations.js';
import type { Services } from '../app/services.js';
import { ConfigError } from '../config.js';
import { AccountError } from '../domain/account-errors.js';
import { roles } from '../domain/permissions.js';
import { processOutput, type CliOutput } from './output.js';

export const USERS_USAGE = `       npm run cli -- users invite --merchant ID --email E --role ROLE [--json]

  users invite    a one-time invitation URL to the merchant's dashboard for E, valid 72 h (the service sends no
                  e-mail: pass the URL on); ROLE is one of ${roles.join(', ')}; --json prints
                  {"invitation_id", "url", "expires_at"}`;

export const isUsersCommand = (positionals: string[]): boolean => positionals[0] === 'users';

/** `users invite`: prints the invitation URL (against the same database and PUBLIC_BASE_URL as the server). */
export async function runUsersCommand(s: Services, args: string[], baseUrl: string, output: CliOutput = processOutput): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { merchant: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.join(' ') !== 'users invite') throw new ConfigError(`unknown command '${positionals.join(' ')}'.\n${USERS_USAGE}`);
  if (!values.merchant?.trim()) throw new ConfigError('--merchant is required.');
  if (!values.email?.trim()) throw new ConfigError('--email is required.');
  if (!values.role) throw new ConfigError(`--role is required (${roles.join(', ')}).`);
  try {
    const { invitation, token } = await inviteAsOperator(s, values.merchant.trim(), values.email, values.role);
    const url = invitationUrl(baseUrl, token);
    if (values.json) output.out(JSON.stringify({ invitation_id: invitation.id, url, expires_at: invitation.expiresAt.toISOString() }));
    else
      output.out(
        `Invitation ${invitation.id} for ${invitation.email} (${invitation.role}), valid until ${invitation.expiresAt.toISOString()}; pass this URL on:\n  ${url}`,
      );
  } catch (error) {
    throw error instanceof AccountError ? new ConfigError(error.message) : error;
  }
}
