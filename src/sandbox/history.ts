// The history of one project: `conversations` turns spread over the `historyDays` before the
// sandbox's start. Every history row is visible at start (its timestamp is at least 15 minutes
// before start and arrives 1–10 minutes late). Rows get their rowIds in a seeded shuffled order,
// so the API's order is unrelated to `timestamp`.
import { drawTurnCount, drawTurnGap, makeConversation } from './conversation-factory.js';
import { MALFORMED_KIND_COUNT } from './malformed.js';
import { chance, int, rngFor, shuffled } from './prng.js';
import { makeRowId } from './row-ids.js';
import type { Row } from './row.js';

export interface DatasetParams {
  seed: number;
  projectId: string;
  siteUrl: string;
  /** Row-id tag of the project (row-ids.ts). */
  tag: string;
  startMs: number;
}

const DAY = 86_400_000;
const MIN = 60_000;
/** Newest history timestamp: far enough before start that the 1–10 min delay has passed. */
const NEWEST_GAP_MS = 15 * MIN;
/** Every this-many conversations, one is placed to cross midnight UTC. */
const MIDNIGHT_EVERY = 40;
/** History turns this recent may still be waiting for their category at start (live mode). */
const RECENT_MS = 6 * 3_600_000;

export function buildHistory(p: DatasetParams, turns: number, historyDays: number): Row[] {
  const rng = rngFor(p.seed, p.projectId, 'history');
  const flaws = rngFor(p.seed, p.projectId, 'malformed');
  const end = p.startMs - NEWEST_GAP_MS;
  const begin = Math.min(p.startMs - historyDays * DAY, end - 60 * MIN);
  const rows: Omit<Row, 'rowId'>[] = [];

  for (let conv = 0; rows.length < turns; conv++) {
    const count = Math.min(drawTurnCount(rng), turns - rows.length);
    const timestamps = conv % MIDNIGHT_EVERY === 7 && count >= 2
      ? acrossMidnight(rng, begin, end, count) ?? spread(rng, begin, end, count)
      : spread(rng, begin, end, count);
    for (const draft of makeConversation(rng, p.siteUrl, timestamps)) {
      const visibleAt = draft.timestampMs + int(rng, MIN, 10 * MIN);
      const pending = draft.record.queryCategory !== null && draft.timestampMs >= p.startMs - RECENT_MS && chance(rng, 0.35);
      rows.push({
        timestampMs: draft.timestampMs,
        visibleAt,
        categorizedAt: pending ? p.startMs + int(rng, 5 * MIN, 180 * MIN) : null,
        record: draft.record,
        malformU: flaws(),
        malformKind: int(flaws, 0, MALFORMED_KIND_COUNT - 1),
      });
    }
  }

  const order = shuffled(rngFor(p.seed, p.projectId, 'order'), rows.map((_, i) => i));
  return rows
    .map((r, i) => ({ ...r, rowId: makeRowId(p.startMs, p.tag, order[i]!) }))
    .sort((a, b) => (a.rowId < b.rowId ? -1 : 1));
}

/** Turn timestamps of a conversation starting at a random instant, all ≤ end. */
function spread(rng: () => number, begin: number, end: number, count: number): number[] {
  const out = [begin + Math.floor(rng() * (end - begin))];
  for (let i = 1; i < count; i++) out.push(out[i - 1]! + drawTurnGap(rng));
  const overshoot = out[out.length - 1]! - end;
  return overshoot > 0 ? out.map((t) => t - overshoot) : out;
}

/** Timestamps whose first turn is just before a midnight UTC inside the range and the second after. */
function acrossMidnight(rng: () => number, begin: number, end: number, count: number): number[] | null {
  const firstMidnight = Math.ceil((begin + 10 * MIN) / DAY) * DAY;
  const lastMidnight = Math.floor((end - 30 * MIN) / DAY) * DAY;
  if (lastMidnight < firstMidnight) return null;
  const days = (lastMidnight - firstMidnight) / DAY;
  const midnight = firstMidnight + int(rng, 0, days) * DAY;
  const out = [midnight - int(rng, 1_000, 3 * MIN), midnight + int(rng, 1_000, 3 * MIN)];
  for (let i = 2; i < count; i++) out.push(out[i - 1]! + drawTurnGap(rng));
  return out;
}
