import { DASHBOARD_BASE } from './layout.js';

/** The one-time URL of an invitation: `{PUBLIC_BASE_URL}/dashboard/invitations/{token}`. */
export const invitationUrl = (baseUrl: string, token: string): string => `${baseUrl.replace(/\/+$/, '')}${DASHBOARD_BASE}/invitations/${token}`;
