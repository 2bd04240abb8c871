// Shared helpers of the sandbox tests: a controllable clock and small HTTP helpers (real HTTP).
import { FakeClock as SharedFakeClock } from '../helpers/fake-clock.js';
import { httpCall, type Reply } from '../helpers/http.js';
import { normalizeOffset } from '../../src/contracts/analytics.js';
import {
  DEMO_API_KEY, defaultSandboxOptions, startSandbox, type Sandbox, type SandboxOptions,
} from '../../src/tools/sandbox/index.js';

/** A fixed start instant for deterministic data: 2026-03-15T12:00:00Z. */
export const START = Date.UTC(2026, 2, 15, 12, 0, 0);

/** The sandbox tests' clock: settable, and latency sleeps never move it. */
export class FakeClock extends SharedFakeClock {
  constructor(ms = START) {
    super(ms, { sleepAdvances: false });
  }
}

export function sandboxWith(overrides: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  return startSandbox(defaultSandboxOptions({ clock: new FakeClock(), conversations: 600, ...overrides }));
}

export type { Reply };

export function call(
  sb: Sandbox, path: string, o: { key?: string | null; method?: string; body?: unknown } = {},
): Promise<Reply> {
  return httpCall(sb.url, path, { ...o, key: o.key === undefined ? DEMO_API_KEY : o.key });
}

export function assistantPath(projectId: string, params: Record<string, string | number> = {}): string {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return `/v1/analytics/${encodeURIComponent(projectId)}/assistant${qs ? `?${qs}` : ''}`;
}

/** Follows nextCursor while hasMore; returns every served record and the page count. */
export async function readAll(
  sb: Sandbox, projectId = 'demo', params: Record<string, string | number> = {}, between?: () => void,
): Promise<{ records: Record<string, unknown>[]; pages: number }> {
  const records: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await call(sb, assistantPath(projectId, { limit: 1000, ...params, ...(cursor ? { cursor } : {}) }));
    if (r.status !== 200) throw new Error(`page ${pages + 1}: HTTP ${r.status} ${r.text}`);
    records.push(...r.json.conversations);
    pages++;
    if (r.json.hasMore !== (r.json.nextCursor !== null)) throw new Error('hasMore and nextCursor disagree');
    cursor = r.json.nextCursor;
    between?.();
  } while (cursor);
  return { records, pages };
}

export function instantOf(timestamp: unknown): number {
  return Date.parse(normalizeOffset(String(timestamp)));
}

/** A turn's identity: conversation id + the instant of its timestamp. */
export function turnKey(t: { id?: unknown; timestamp?: unknown }): string {
  return `${String(t.id)}@${instantOf(t.timestamp)}`;
}

/** `/v1/analytics/{projectId}/{endpoint}?params` for any analytics endpoint ("feedback/by-page", "views", …). */
export function analyticsPath(projectId: string, endpoint: string, params: Record<string, string | number> = {}): string {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return `/v1/analytics/${encodeURIComponent(projectId)}/${endpoint}${qs ? `?${qs}` : ''}`;
}

/** GET a path that must answer 200; returns the parsed body. */
export async function get200(sb: Sandbox, path: string): Promise<Reply['json']> {
  const r = await call(sb, path);
  if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${r.text}`);
  return r.json;
}

/** Follows GET …/feedback's nextCursor while hasMore; every served entry, and the page count. */
export async function readFeedback(
  sb: Sandbox, params: Record<string, string | number> = {}, projectId = 'demo',
): Promise<{ records: Record<string, unknown>[]; pages: number }> {
  const records: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const body = await get200(sb, analyticsPath(projectId, 'feedback', { limit: 100, ...params, ...(cursor ? { cursor } : {}) }));
    if (body.hasMore !== (body.nextCursor !== null)) throw new Error('hasMore and nextCursor disagree');
    records.push(...body.feedback);
    cursor = body.nextCursor;
    pages++;
  } while (cursor);
  return { records, pages };
}
