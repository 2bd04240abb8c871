// Query parameters of GET /v1/analytics/{projectId}/assistant. Every problem becomes one detail
// of the 400 body; unknown parameters are ignored. dateFrom is inclusive, dateTo exclusive; both
// take YYYY-MM-DD (midnight UTC) or an ISO 8601 date-time with `Z` or any offset (no offset = UTC).
import { calendarValid } from '../core/dates.js';
import { DATE_PARAM, ISO_TIMESTAMP, normalizeOffset, ULID } from '../contracts/analytics.js';

export interface AssistantQuery {
  limit: number;
  fromMs: number | null;
  toMs: number | null;
  cursor: string | null;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export type Parsed = { ok: true; query: AssistantQuery } | { ok: false; details: { message: string }[] };

export function parseAssistantQuery(params: URLSearchParams): Parsed {
  const details: { message: string }[] = [];
  const single = (name: string): string | null => {
    const all = params.getAll(name);
    if (all.length > 1) details.push({ message: `${name} must be given at most once` });
    return all[0] ?? null;
  };

  const limitText = single('limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== null) {
    const n = Number(limitText);
    if (!/^\d+$/.test(limitText) || n < 1 || n > MAX_LIMIT) {
      details.push({ message: `limit must be an integer from 1 to ${MAX_LIMIT}, got "${limitText}"` });
    } else limit = n;
  }

  const fromMs = parseDateParam('dateFrom', single('dateFrom'), details);
  const toMs = parseDateParam('dateTo', single('dateTo'), details);
  if (fromMs !== null && toMs !== null && fromMs >= toMs) {
    details.push({ message: 'dateFrom must be before dateTo (dateTo is exclusive)' });
  }

  const cursor = single('cursor');
  if (cursor !== null && !ULID.test(cursor)) details.push({ message: 'cursor must be a ULID returned as nextCursor' });

  return details.length > 0 ? { ok: false, details } : { ok: true, query: { limit, fromMs, toMs, cursor } };
}

function parseDateParam(name: string, text: string | null, details: { message: string }[]): number | null {
  if (text === null) return null;
  const ms = parseInstant(text);
  if (ms === null) details.push({ message: `${name} must be a date in ISO 8601 or YYYY-MM-DD format, got "${text}"` });
  return ms;
}

/** The instant of a YYYY-MM-DD or ISO 8601 text, or null when it is not one (incl. 2026-02-30). */
export function parseInstant(text: string): number | null {
  if (DATE_PARAM.test(text)) return calendarValid(text) ? Date.parse(`${text}T00:00:00Z`) : null;
  if (!ISO_TIMESTAMP.test(text) || !calendarValid(text)) return null;
  const ms = Date.parse(normalizeOffset(text));
  return Number.isNaN(ms) ? null : ms;
}

