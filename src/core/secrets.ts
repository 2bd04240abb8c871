// The admin key is a server-side secret: it never appears in logs, errors, state or the warehouse.
// An organization is identified by a fingerprint of its key instead.
import { createHash } from 'node:crypto';
import { UsageError } from './errors.js';

export function keyFingerprint(key: string): string {
  return `org_${createHash('sha256').update(`docs-etl:${key}`).digest('hex').slice(0, 16)}`;
}

/**
 * Removes every occurrence of the given secrets from a text (error messages from libraries, server
 * text), also in the spellings a server may echo them in: URL-encoded and JSON-escaped.
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)])) {
      out = out.split(form).join('[redacted]');
    }
  }
  return out;
}

/** Presigned URLs are logged without their query string (it carries the signature) or credentials. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}${u.search ? '?[redacted]' : ''}`;
  } catch {
    return '[unparseable url]';
  }
}

export interface NormalizedKey {
  key: string;
  /** What was removed, for a warning that never shows the key (empty when nothing was). */
  fixes: string[];
}

const ZERO_WIDTH = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;

/**
 * A key as pasted into an environment variable: zero-width characters, surrounding whitespace (a
 * trailing newline) and a `Bearer ` prefix are removed and reported; anything else that cannot be
 * a key (inner whitespace, control or non-ASCII characters) is a UsageError naming `source` and
 * the position only. Keys are printable ASCII: they travel in an HTTP header.
 */
export function normalizeApiKey(raw: string, source: string): NormalizedKey {
  const fixes: string[] = [];
  let key = raw.replace(ZERO_WIDTH, '');
  if (key !== raw) fixes.push('zero-width characters');
  if (key.trim() !== key) fixes.push('surrounding whitespace');
  key = key.trim();
  const bearer = /^bearer(\s+|$)/i.exec(key);
  if (bearer) {
    fixes.push('a "Bearer " prefix');
    key = key.slice(bearer[0].length);
  }
  if (!key) throw new UsageError(`${source} is empty`);
  const bad = /[^\x21-\x7e]/.exec(key);
  if (bad) {
    const c = bad[0];
    const what = /\s/.test(c) ? 'whitespace' : c.charCodeAt(0) < 0x20 || c === '\x7f' ? 'a control character' : 'a non-ASCII character';
    throw new UsageError(
      `${source} contains ${what} at position ${bad.index + 1} of ${key.length}: an API key is printable ASCII without spaces; check how it was pasted`,
    );
  }
  return { key, fixes };
}

/** The warning for a normalized key: what was removed, never the key. */
export function keyFixWarning(source: string, fixes: readonly string[]): string {
  return `${source}: removed ${fixes.join(' and ')} from the API key`;
}

/**
 * Every secret the environment may hold (variables named like KEY, TOKEN, SECRET), as given and as
 * normalized, for the last scrub before anything is printed.
 */
export function secretsOf(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || !/KEY|TOKEN|SECRET/i.test(name)) continue;
    out.add(value);
    out.add(value.trim());
    try {
      out.add(normalizeApiKey(value, name).key);
    } catch {
      // not a usable key: the raw forms above are scrubbed
    }
  }
  // The budget's Redis URL (DOCS_ETL_BUDGET_URL) may carry a password: never shown either.
  for (const p of urlSecrets(env.DOCS_ETL_BUDGET_URL)) out.add(p);
  return [...out];
}

/**
 * Query keys whose value is a secret in a client's URL: ioredis turns every query key into an
 * option (`?password=`, `?sentinelPassword=`), and so may other clients (token, key, auth…).
 */
export const SECRET_QUERY_KEY = /pass|secret|token|auth|key|cred/i;

/**
 * Every secret a URL carries, as written and decoded: the userinfo password (or a lone user name,
 * where a password is often put by mistake) and the values of secret query keys
 * (SECRET_QUERY_KEY). None (or not a URL): empty.
 */
export function urlSecrets(url: string | undefined | null): string[] {
  let u: URL;
  try {
    if (!url) return [];
    u = new URL(url.trim());
  } catch {
    return [];
  }
  const out = new Set<string>();
  const add = (raw: string, decoded: string): void => {
    if (!raw) return;
    out.add(raw);
    out.add(decoded);
  };
  add(u.password, safeDecode(u.password));
  // `redis://secret@host` puts a password where the user name goes (ioredis sends it as the user).
  if (!u.password) add(u.username, safeDecode(u.username));
  // Raw query text too: `?password=a%2Bb` is shown by some messages as written.
  for (const part of u.search.slice(1).split('&')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = safeDecode(part.slice(0, at).replace(/\+/g, ' '));
    if (SECRET_QUERY_KEY.test(key)) add(part.slice(at + 1), safeDecode(part.slice(at + 1).replace(/\+/g, ' ')));
  }
  return [...out].filter((s) => s.length > 0);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
