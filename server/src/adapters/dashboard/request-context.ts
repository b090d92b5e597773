import type { Request } from 'express';
import { clientAddress } from '../pages/client-address.js';
import type { Client } from '../../app/account-audit.js';
import type { SignedIn } from '../../app/dashboard-sessions.js';
import type { ActingMember } from '../../app/team.js';
import type { AuditContext } from '../../domain/audit.js';
import type { Merchant } from '../../domain/merchant.js';
import type { Membership } from '../../domain/team.js';
import type { Language, Messages } from './messages.js';

/** Who is asking, on every signed-in dashboard request (set by ./session.ts). */
export interface DashboardContext extends SignedIn {
  membership: Membership;
  merchant: Merchant;
  /** The token every form of this session carries. */
  csrfToken: string;
  /** The member as the team's and other use cases take them. */
  actor: ActingMember;
  /** Who, through the dashboard, from which address: for recordAudit. */
  audit: AuditContext;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set on signed-in requests only. */
    dashboard?: DashboardContext;
    /** The page's language (./language.ts), on every dashboard request. */
    lang?: Language;
    t?: Messages;
    /** The CSRF token for forms on this request: the session's, or the pre-session cookie's. */
    csrfToken?: string;
  }
}

/** The signed-in context; only under `requireSignIn` (a route outside it has none). */
export function signedIn(req: Request): DashboardContext {
  if (!req.dashboard) throw new Error('signedIn(req) outside requireSignIn');
  return req.dashboard;
}

/** The client's address (the request pipeline's, TRUST_PROXY deciding whether a forwarded one counts) and browser. */
export const clientOf = (req: Request): Client => ({ address: clientAddress(req), userAgent: req.get('user-agent') ?? null });
