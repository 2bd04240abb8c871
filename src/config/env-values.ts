// Values read from environment variables and URLs given anywhere: checked into one clear line.
import { UsageError } from '../core/errors.js';

/** A byte count from a (hidden, test-oriented) environment variable; undefined when unset. */
export function byteCap(v: string | undefined, name: string): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${name} must be a positive number of bytes, got "${v}"`);
  return n;
}

export function checkUrl(v: string, name: string): void {
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new UsageError(`${name} is not an http(s) URL: "${v}"`);
  }
}

/** A comma-separated environment list; unset or blank: not given. */
export function listEnv(v: string | undefined): string[] | undefined {
  const list = (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return list.length ? list : undefined;
}
