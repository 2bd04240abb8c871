// The budget's Redis URL (DOCS_ETL_BUDGET_URL, config `budget`): checked without connecting, and
// shown only with every secret replaced (status, doctor, messages). ioredis takes a secret in
// several forms: the userinfo (`redis://user:pass@`), and any query key it turns into an option
// (`?password=`, `?username=…&password=`, `?sentinelPassword=`), for redis:// and rediss:// alike.
// Kept apart from the ioredis client so that reading a config never loads it.
import { UsageError } from '../core/errors.js';
import { SECRET_QUERY_KEY, urlSecrets } from '../core/secrets.js';

/** Query options shown as written: none of them can carry a secret. Every other value is masked. */
const SHOWN_QUERY_KEYS = new Set(['db', 'family', 'connectionName', 'tls', 'connectTimeout', 'commandTimeout']);

/**
 * A Redis URL as it may be shown: the user and password, and every query value that may be a
 * secret, replaced by ***. Throws UsageError for a non-Redis URL.
 */
export function redactRedisUrl(url: string, source = 'DOCS_ETL_BUDGET_URL'): string {
  const u = parseRedisUrl(url, source);
  if (u.username) u.username = '***';
  if (u.password) u.password = '***';
  const shown = new URLSearchParams();
  for (const [key, value] of u.searchParams) shown.append(key, SHOWN_QUERY_KEYS.has(key) ? value : '***');
  u.search = shown.toString() ? `?${shown.toString().replace(/%2A/g, '*')}` : '';
  return u.toString();
}

/** Every secret of the URL (userinfo password, secret query values), as written and decoded. */
export function redisUrlSecrets(url: string): string[] {
  return urlSecrets(url);
}

/** Why the URL may not stand in a config file (it holds a secret), or null. */
export function redisUrlSecretProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const secretKeys = [...u.searchParams.keys()].filter((k) => SECRET_QUERY_KEY.test(k));
  if (!u.password && !u.username && !secretKeys.length) return null;
  const where = u.password || u.username ? 'a user or password before the host' : `a ${secretKeys[0]} query parameter`;
  return `the URL holds a secret (${where}): the config file holds no secrets, set the DOCS_ETL_BUDGET_URL environment variable instead`;
}

/** Longest `connectTimeout`/`commandTimeout` a URL may set (ms): every remote wait has an end. */
const MAX_URL_TIMEOUT_MS = 600_000;

/**
 * The URL's own `?connectTimeout=` and `?commandTimeout=` (ms), as numbers. ioredis copies query
 * values into its options as text, which Node's socket timers refuse (an uncaught TypeError): the
 * caller sets these numbers over them. Anything but a whole number of 1 to 600000 ms is a UsageError.
 */
export function redisUrlTimeouts(url: string, source: string): { connectTimeout?: number; commandTimeout?: number } {
  const u = parseRedisUrl(url, source);
  const out: { connectTimeout?: number; commandTimeout?: number } = {};
  for (const key of ['connectTimeout', 'commandTimeout'] as const) {
    const text = u.searchParams.get(key);
    if (text === null) continue;
    const ms = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(ms >= 1 && ms <= MAX_URL_TIMEOUT_MS)) throw new UsageError(`${source}: ${key} must be a whole number of milliseconds from 1 to ${MAX_URL_TIMEOUT_MS}, got "${text}"`);
    out[key] = ms;
  }
  return out;
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
