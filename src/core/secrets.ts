// The admin key is a server-side secret: it never appears in logs, errors, state or the warehouse.
// An organization is identified by a fingerprint of its key instead.
import { createHash } from 'node:crypto';

export function keyFingerprint(key: string): string {
  return `org_${createHash('sha256').update(`docs-etl:${key}`).digest('hex').slice(0, 16)}`;
}

/** Removes every occurrence of the given secrets from a text (error messages from libraries). */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** Presigned URLs are logged without their query string (it carries the signature). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${u.search ? '?[redacted]' : ''}`;
  } catch {
    return '[unparseable url]';
  }
}
