// The opaque cursors of GET …/feedback and GET …/searches: base64url of a small JSON array that
// names its endpoint and the keyset position of the page's last item. The API only promises
// "opaque"; clients must pass them back unchanged. Like the assistant's cursors, they are also
// checked against the issued-cursor registry (cursors.ts): unknown, expired or forgotten → 400.
import type { FeedbackPosition } from './feedback-store.js';

function encode(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

function decode(text: string): unknown[] | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(text)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

export function feedbackCursor(p: FeedbackPosition): string {
  return encode(['feedback', p.group, p.seq]);
}

export function parseFeedbackCursor(text: string): FeedbackPosition | null {
  const v = decode(text);
  if (!v || v.length !== 3 || v[0] !== 'feedback' || (v[1] !== 0 && v[1] !== 1) || !Number.isSafeInteger(v[2]) || (v[2] as number) < 0) return null;
  return { group: v[1], seq: v[2] as number };
}

/** A searches position: the (hits, searchQuery) of the last item served. */
export interface SearchPosition {
  hits: number;
  searchQuery: string;
}

export function searchesCursor(p: SearchPosition): string {
  return encode(['searches', p.hits, p.searchQuery]);
}

export function parseSearchesCursor(text: string): SearchPosition | null {
  const v = decode(text);
  if (!v || v.length !== 3 || v[0] !== 'searches' || !Number.isSafeInteger(v[1]) || typeof v[2] !== 'string') return null;
  return { hits: v[1] as number, searchQuery: v[2] };
}
