// The history of one project (`conversations` turns over the `historyDays` before the sandbox's
// start), as compact blocks. Every history turn is visible at start (its timestamp is at least 15
// minutes before start and it arrives 1–10 minutes late). The turns get rowId sequences in a seeded
// shuffled order, so the API's order is unrelated to `timestamp`; they are stored in time slices
// (blocks), each sorted by sequence, so a narrow date window reads only the slices it overlaps.
// In live mode ~35% of the categorized turns of the last 6 hours still wait for their category at
// start (a change from null, 5–180 min after start); without live mode the history is static.
import { ColumnsBuilder, sliceColumns } from './columns.js';
import type { SiteLinks } from './corpus.js';
import {
  CLARIFYING, drawMainCategory, drawTurnClass, drawTurnCount, drawTurnGap, UNANSWERED, UNANSWERED_FIRST,
} from './conversation-factory.js';
import { chance, hashSeed, int, rngFor } from './prng.js';
import { RowBlock, type TurnSource } from './row-block.js';

export interface HistoryParams {
  seed: number;
  projectId: string;
  site: SiteLinks;
  startMs: number;
  turns: number;
  historyDays: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MIN = 60_000;
/** Newest history timestamp: far enough before start that the 1–10 min delay has passed. */
const NEWEST_GAP_MS = 15 * MIN;
/** Every this-many conversations, one is placed to cross midnight UTC. */
const MIDNIGHT_EVERY = 40;
/** History turns this recent may still be waiting for their category at start (live mode). */
const RECENT_MS = 6 * HOUR;
/** About this many time slices: few enough for a cheap merge, small enough for narrow windows. */
const TARGET_SLICES = 128;

export function buildHistory(p: HistoryParams): RowBlock[] {
  if (p.turns <= 0) return [];
  const rng = rngFor(p.seed, p.projectId, 'history');
  const end = p.startMs - NEWEST_GAP_MS;
  const begin = Math.min(p.startMs - p.historyDays * DAY, end - 60 * MIN);
  const cols = new ColumnsBuilder(p.turns);
  const convStart: number[] = [];

  for (let conv = 0; cols.length < p.turns; conv++) {
    const count = Math.min(drawTurnCount(rng), p.turns - cols.length);
    const timestamps = conv % MIDNIGHT_EVERY === 7 && count >= 2
      ? acrossMidnight(rng, begin, end, count) ?? spread(rng, begin, end, count)
      : spread(rng, begin, end, count);
    const main = drawMainCategory(rng);
    convStart.push(timestamps[0]!);
    timestamps.forEach((ts, turn) => {
      const cls = drawTurnClass(rng, main);
      const delay = int(rng, MIN, 10 * MIN);
      const pending = cls.category !== 0 && ts >= p.startMs - RECENT_MS && chance(rng, 0.35);
      const flags = (cls.unanswered ? UNANSWERED | UNANSWERED_FIRST : 0) | (cls.clarifying ? CLARIFYING : 0);
      cols.push({
        ts, delay, change: pending ? p.startMs + int(rng, 5 * MIN, 180 * MIN) - ts : 0, conv, turn,
        cat: cls.category, catFirst: pending ? 0 : cls.category, flags,
      });
    });
  }

  // rowId sequence s belongs to turn bySeq[s] (a seeded permutation). Walking s upwards and
  // dealing each turn into its time slice leaves every slice sorted by sequence, with no sort.
  const n = cols.length;
  const bySeq = new Uint32Array(n);
  for (let i = 0; i < n; i++) bySeq[i] = i;
  const order = rngFor(p.seed, p.projectId, 'order');
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(order() * (i + 1));
    const t = bySeq[i]!;
    bySeq[i] = bySeq[j]!;
    bySeq[j] = t;
  }
  const width = Math.max(HOUR, Math.ceil((end - begin) / TARGET_SLICES / HOUR) * HOUR);
  // Every timestamp is in [begin, end] (spread and acrossMidnight keep them there).
  const slices = Math.floor((end - begin) / width) + 1;
  const sliceOf = (i: number) => Math.min(slices - 1, Math.max(0, Math.floor((cols.ts[i]! - begin) / width)));
  const offsets = new Uint32Array(slices + 1);
  for (let i = 0; i < n; i++) offsets[sliceOf(i) + 1]!++;
  for (let k = 0; k < slices; k++) offsets[k + 1]! += offsets[k]!;
  const fill = offsets.slice(0, slices);
  const grouped = new Uint32Array(n);
  const seqs = new Uint32Array(n);
  for (let s = 0; s < n; s++) {
    const i = bySeq[s]!;
    const at = fill[sliceOf(i)]!++;
    grouped[at] = i;
    seqs[at] = s;
  }

  const all = cols.take(grouped);
  const src: TurnSource = {
    streamKey: hashSeed(p.seed, p.projectId, 'history'), site: p.site,
    convStart: Float64Array.from(convStart), mixKey: hashSeed(p.seed, p.projectId, 'history', 'malformed'), changes: 'live',
  };
  const blocks: RowBlock[] = [];
  for (let k = 0; k < slices; k++) {
    const [from, to] = [offsets[k]!, offsets[k + 1]!];
    if (to > from) blocks.push(new RowBlock(src, sliceColumns(all, from, to), { kind: 'fixed', time: p.startMs, seqs: seqs.subarray(from, to) }));
  }
  return blocks;
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
  const out = [midnight - int(rng, 1_000, 3 * MIN)];
  out.push(midnight + int(rng, 1_000, 3 * MIN));
  for (let i = 2; i < count; i++) out.push(out[i - 1]! + drawTurnGap(rng));
  return out;
}
