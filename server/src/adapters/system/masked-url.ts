/** A query parameter's name that says it holds a secret (`password`, libpq's `sslpassword`, `token`, `api_key` ...). */
const SECRET_NAME = /password|passwd|pwd|secret|token|key/i;
const SECRET_PARAMETER = /([?&]([^=&#]*)=)([^&#]*)/g;
/** `scheme://userinfo@`: the userinfo (up to the authority's last `@`), its password after the first `:`. */
const AUTHORITY_WITH_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*)(:[^/?#]*)?@/i;

const NOT_SHOWN = '(not shown: not a URL, and it may hold a password)';

const maskParameters = (text: string): string =>
  text.replace(SECRET_PARAMETER, (whole, head: string, name: string) => (SECRET_NAME.test(name) ? `${head}***` : whole));

/**
 * A URL as it may be shown in a message: its password and any secret query parameter as `***`
 * (`postgres://app:***@db/x`). A text whose userinfo cannot be told apart (no URL, an `@` anywhere else) is not shown
 * at all, so even a malformed setting never echoes a password.
 */
export function maskedUrl(text: string): string {
  const userinfo = AUTHORITY_WITH_USERINFO.exec(text);
  if (userinfo) return maskParameters(text.replace(AUTHORITY_WITH_USERINFO, (_whole, head: string, password?: string) => `${head}${password ? ':***' : ''}@`));
  if (text.includes('@')) return NOT_SHOWN;
  return maskParameters(text);
}
