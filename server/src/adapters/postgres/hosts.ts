/** One host of DATABASE_URL: `host:port` as written, and the URL that names only it. */
export interface DatabaseHost {
  label: string;
  url: string;
}

export class DatabaseUrlError extends Error {}

/** scheme, userinfo with its `@`, the host list, then path, query and fragment; userinfo ends at the authority's last `@`. */
const PARTS = /^(postgres(?:ql)?:\/\/)((?:[^/?#]*@)?)([^/?#@]*)(.*)$/s;

/**
 * The hosts of a PostgreSQL URL in libpq's form, which may list several (`postgres://u@h1:5432,h2:5433/db`); each is
 * checked as a one-host URL (a single host is passed through as it is). Messages never echo the
 * userinfo (a password).
 */
export function databaseHosts(url: string): DatabaseHost[] {
  const parts = PARTS.exec(url);
  if (!parts?.[3]?.includes(',')) return [{ label: labelOf(url), url }];
  const [, scheme, userinfo, hostList, rest] = parts as unknown as [string, string, string, string, string];
  const entries = hostList.split(',');
  return entries.map((entry, index) => {
    const where = `host ${index + 1} of ${entries.length} ('${entry}')`;
    if (entry === '') throw new DatabaseUrlError(`${where} is empty: list hosts as host1:5432,host2:5433`);
    const single = `${scheme}${userinfo}${entry}${rest}`;
    let parsed: URL;
    try {
      parsed = new URL(single);
    } catch {
      throw new DatabaseUrlError(`${where} is not a host or host:port with a port from 1 to 65535`);
    }
    if (parsed.hostname === '' || parsed.port === '0') throw new DatabaseUrlError(`${where} is not a host or host:port with a port from 1 to 65535`);
    return { label: labelOf(single), url: single };
  });
}

/** `host:port` (node-postgres connects to localhost:5432 unless told otherwise). */
function labelOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'localhost:5432';
  }
}
