// The budget's Redis URL (DOCS_ETL_BUDGET_URL, config `budget`): checked without connecting, and
// shown only with its password replaced (status, doctor, messages). Kept apart from the ioredis
// client so that reading a config never loads it.
import { UsageError } from '../../core/errors.js';

/** A Redis URL as it may be shown: the password replaced by ***. Throws UsageError for a non-Redis URL. */
export function redactRedisUrl(url: string, source = 'DOCS_ETL_BUDGET_URL'): string {
  const u = parseRedisUrl(url, source);
  if (u.password) u.password = '***';
  return u.toString();
}

export function parseRedisUrl(url: string, source: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${source} is not a URL: expected redis://[:password@]host:port/db`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new UsageError(`${source} must be a redis:// or rediss:// URL (redis://host:6379/0), got ${u.protocol}//…`);
  }
  if (u.pathname && u.pathname !== '/' && !/^\/\d+$/.test(u.pathname)) {
    throw new UsageError(`${source}: the path must be a database number (redis://host:6379/0)`);
  }
  try {
    decodeURIComponent(u.password);
  } catch {
    throw new UsageError(`${source}: the password is not URL-encoded (write % as %25)`);
  }
  return u;
}
