// Query parameters of the analytics endpoints. Every problem becomes one detail of the 400 body;
// unknown parameters are ignored; a parameter given twice is a problem. dateFrom is inclusive,
// dateTo exclusive; both take YYYY-MM-DD (midnight UTC) or an ISO 8601 date-time with `Z` or any
// offset (no offset = UTC). Numbers (`limit`, `offset`) must be plain decimal integers in range,
// also where the OpenAPI file types them `number` (a fractional page size means nothing).
import { calendarValid } from '../../core/dates.js';
import { DATE_PARAM, ISO_TIMESTAMP, normalizeOffset, ULID } from '../../contracts/analytics.js';
import { SOURCES, STATUSES } from './feedback-day.js';

export interface Detail {
  message: string;
}

/** Reads one request's parameters, collecting a detail per problem. */
export class ParamReader {
  readonly details: Detail[] = [];

  constructor(private readonly params: URLSearchParams) {}

  get ok(): boolean {
    return this.details.length === 0;
  }

  problem(message: string): void {
    this.details.push({ message });
  }

  /** The parameter's value, or null when absent (given twice: a problem, the first value). */
  single(name: string): string | null {
    const all = this.params.getAll(name);
    if (all.length > 1) this.problem(`${name} must be given at most once`);
    return all[0] ?? null;
  }

  /** An integer in [min, max] (max null = unbounded), `fallback` when absent. */
  integer(name: string, min: number, max: number | null, fallback: number): number {
    const text = this.single(name);
    if (text === null) return fallback;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min || (max !== null && n > max)) {
      this.problem(`${name} must be an integer ${max === null ? `of at least ${min}` : `from ${min} to ${max}`}, got "${text}"`);
      return fallback;
    }
    return n;
  }

  /** dateFrom (inclusive) and dateTo (exclusive) as instants, null when absent. */
  dates(): { fromMs: number | null; toMs: number | null } {
    const fromMs = this.date('dateFrom');
    const toMs = this.date('dateTo');
    if (fromMs !== null && toMs !== null && fromMs >= toMs) this.problem('dateFrom must be before dateTo (dateTo is exclusive)');
    return { fromMs, toMs };
  }

  private date(name: string): number | null {
    const text = this.single(name);
    if (text === null) return null;
    const ms = parseInstant(text);
    if (ms === null) this.problem(`${name} must be a date in ISO 8601 or YYYY-MM-DD format, got "${text}"`);
    return ms;
  }

  /** The feedback `source` filter as a code (index in SOURCES), null when absent. */
  source(): number | null {
    const text = this.single('source');
    if (text === null) return null;
    const code = (SOURCES as readonly string[]).indexOf(text);
    if (code < 0) this.problem(`source must be one of ${SOURCES.join(', ')}, got "${text}"`);
    return code < 0 ? null : code;
  }

  /** The comma-separated feedback `status` filter as codes (indexes in STATUSES), null when absent. */
  statuses(): number[] | null {
    const text = this.single('status');
    if (text === null) return null;
    const parts = text.split(',').map((s) => s.trim());
    const codes: number[] = [];
    for (const part of parts) {
      const code = (STATUSES as readonly string[]).indexOf(part);
      if (code < 0) this.problem(`status must be a comma-separated list of ${STATUSES.join(', ')}; "${part}" is not one`);
      else if (!codes.includes(code)) codes.push(code);
    }
    return codes;
  }
}

export interface AssistantQuery {
  limit: number;
  fromMs: number | null;
  toMs: number | null;
  cursor: string | null;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export type Parsed = { ok: true; query: AssistantQuery } | { ok: false; details: Detail[] };

/** GET …/assistant: limit 1–1000 (default 100), dates, a ULID cursor. */
export function parseAssistantQuery(params: URLSearchParams): Parsed {
  const r = new ParamReader(params);
  const limit = r.integer('limit', 1, MAX_LIMIT, DEFAULT_LIMIT);
  const { fromMs, toMs } = r.dates();
  const cursor = r.single('cursor');
  if (cursor !== null && !ULID.test(cursor)) r.problem('cursor must be a ULID returned as nextCursor');
  return r.ok ? { ok: true, query: { limit, fromMs, toMs, cursor } } : { ok: false, details: r.details };
}

/** The instant of a YYYY-MM-DD or ISO 8601 text, or null when it is not one (incl. 2026-02-30). */
export function parseInstant(text: string): number | null {
  if (DATE_PARAM.test(text)) return calendarValid(text) ? Date.parse(`${text}T00:00:00Z`) : null;
  if (!ISO_TIMESTAMP.test(text) || !calendarValid(text)) return null;
  const ms = Date.parse(normalizeOffset(text));
  return Number.isNaN(ms) ? null : ms;
}
