// How timeline turns arrive and change: the delay until a turn becomes visible, and an optional
// later change of its category and/or status. Two models: `live` (the documented live mode) and
// `traffic` (configurable, defaults from the request-planner issue). Draws come from the bucket's
// build stream, so a bucket stays a pure function of (seed, project, bucket).
import { CATEGORY_COUNT } from './categories.js';
import type { TurnClass } from './conversation-factory.js';
import type { TrafficOptions } from './options.js';
import { chance, int, type Rng } from './prng.js';

const SECOND = 1000;
const MIN = 60_000;
const HOUR = 3_600_000;
/** Longest delay or change a model may use: keeps keys and offsets in range (columns.ts, timeline.ts). */
export const MAX_MODEL_MS = 7 * 24 * HOUR;

/** A later change: its offset from the turn's timestamp, and the turn's first version. */
export interface TurnChange {
  afterMs: number;
  categoryFirst: number;
  unansweredFirst: boolean;
}

export interface ArrivalModel {
  /** ms from the turn's timestamp until it becomes visible. */
  delay(rng: Rng): number;
  /** The turn's later change, or null. `delay` is the turn's own. */
  change(rng: Rng, cls: TurnClass, delay: number): TurnChange | null;
}

/** Live mode: visible 1–10 min after the timestamp, ~2% hours late; ~15% of categorized turns get their category 2–60 min after they appear. */
export const liveModel: ArrivalModel = {
  delay: (rng) => (chance(rng, 0.02) ? int(rng, HOUR, 4 * HOUR) : int(rng, MIN, 10 * MIN)),
  change: (rng, cls, delay) => (cls.category !== 0 && chance(rng, 0.15)
    ? { afterMs: delay + int(rng, 2 * MIN, 60 * MIN), categoryFirst: 0, unansweredFirst: cls.unanswered }
    : null),
};

export const DEFAULT_TRAFFIC_MODEL: Omit<TrafficOptions, 'turnsPerDay'> = {
  arrival: [{ share: 0.9, withinMs: 5 * MIN }, { share: 0.09, withinMs: 3 * HOUR }, { share: 0.01, withinMs: 20 * HOUR }],
  changes: { share: 0.3, minMs: 2 * HOUR, maxMs: 12 * HOUR },
};

/** Traffic options with the default models (`trafficOptions(100_000)` = 100k turns a day). */
export function trafficOptions(turnsPerDay: number, over: Partial<Omit<TrafficOptions, 'turnsPerDay'>> = {}): TrafficOptions {
  return { turnsPerDay, ...structuredClone(DEFAULT_TRAFFIC_MODEL), ...over };
}

/** Most turns a day a traffic timeline makes (an hour's bucket holds < 2^21 turns; timeline.ts). */
export const MAX_TURNS_PER_DAY = 48_000_000;

/** The problems of a traffic configuration, as sentences (empty = valid). */
export function trafficProblems(t: TrafficOptions): string[] {
  const out: string[] = [];
  if (!(t.turnsPerDay >= 0 && t.turnsPerDay <= MAX_TURNS_PER_DAY)) out.push(`turnsPerDay must be from 0 to ${MAX_TURNS_PER_DAY}`);
  if (t.arrival.length === 0) out.push('arrival needs at least one band');
  let prev = SECOND;
  let total = 0;
  for (const b of t.arrival) {
    if (!(b.share >= 0 && b.share <= 1)) out.push(`arrival share ${b.share} must be from 0 to 1`);
    if (!(b.withinMs >= prev && b.withinMs <= MAX_MODEL_MS)) out.push(`arrival bands must ascend from 1s to at most 7d (got ${b.withinMs} ms)`);
    prev = b.withinMs;
    total += b.share;
  }
  if (t.arrival.length > 0 && Math.abs(total - 1) > 1e-6) out.push(`arrival shares must sum to 1 (got ${total})`);
  const c = t.changes;
  if (!(c.share >= 0 && c.share <= 1)) out.push(`changes share ${c.share} must be from 0 to 1`);
  if (!(c.minMs >= 0 && c.minMs <= c.maxMs && c.maxMs <= MAX_MODEL_MS)) out.push('changes need 0 <= minMs <= maxMs <= 7d');
  return out;
}

/**
 * The traffic model. Delay: the band by its share, then uniform within it. Change: with
 * probability `changes.share`, at a uniform instant in [minMs, maxMs] after the timestamp, of the
 * category (null → set, or another category; 50%), the status (answered ↔ unanswered; 30%) or both
 * (20%). Clarifying questions stay answered: their change is always of the category.
 */
export function trafficModel(t: TrafficOptions): ArrivalModel {
  const bands = t.arrival;
  return {
    delay: (rng) => {
      let u = rng();
      let lower = SECOND;
      for (const b of bands) {
        if (u < b.share || b === bands[bands.length - 1]) return int(rng, lower, b.withinMs);
        u -= b.share;
        lower = b.withinMs;
      }
      return lower;
    },
    change: (rng, cls) => {
      if (!chance(rng, t.changes.share)) return null;
      const afterMs = int(rng, t.changes.minMs, t.changes.maxMs);
      const r = rng();
      const status = !cls.clarifying && r >= 0.5;
      const category = cls.clarifying || r < 0.5 || r >= 0.8;
      return {
        afterMs,
        categoryFirst: category ? firstCategory(rng, cls.category) : cls.category,
        unansweredFirst: status ? !cls.unanswered : cls.unanswered,
      };
    },
  };
}

/** A category the turn had before its final one: null (60%) or another category (a null final one had some category). */
function firstCategory(rng: Rng, final: number): number {
  if (final === 0) return int(rng, 1, CATEGORY_COUNT);
  if (chance(rng, 0.6)) return 0;
  const other = int(rng, 1, CATEGORY_COUNT - 1);
  return other >= final ? other + 1 : other;
}
