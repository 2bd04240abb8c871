// A timeline: turns at a steady rate, generated lazily one hour bucket at a time. Bucket b is a pure
// function of (seed, project, timeline name, b): no timers, nothing kept but its compact block.
// - Bucket b holds the conversations that start in [b·1h, (b+1)·1h) UTC, with their later turns
//   (so a block reaches up to ~25 min past its hour): floor((b+1)·R/24) - floor(b·R/24) turns for
//   R turns a day, spread evenly over the hour. Conversations that start before the timeline's
//   origin are dropped.
// - Keyset invariant: before a read at `now`, every bucket that starts at or before `now` exists.
//   A turn of a later bucket has visibleAt ≥ timestamp ≥ bucket start > now, so it sorts after
//   every cursor issued up to `now` (row-ids.ts): cursor chains stay complete under arrivals.
import type { ArrivalModel } from './arrival-models.js';
import { ColumnsBuilder } from './columns.js';
import type { SiteLinks } from './corpus.js';
import {
  CLARIFYING, drawMainCategory, drawTurnClass, drawTurnCount, drawTurnGap, UNANSWERED, UNANSWERED_FIRST,
} from './conversation-factory.js';
import { hashSeed, rngFor } from './prng.js';
import { RowBlock, type TurnSource } from './row-block.js';

export const BUCKET_MS = 3_600_000;
/** Positions within a bucket and its sort keys use 21 bits: at most ~2M turns an hour. */
const POS_BITS = 2 ** 21;
/** rowId sequences of timeline `space` k start at k·2^44 (history sequences stay below 2^40). */
const SEQ_SPACE = 2 ** 44;

export interface TimelineParams {
  seed: number;
  projectId: string;
  site: SiteLinks;
  name: 'live' | 'traffic';
  /** 1 for live, 2 for traffic: keeps their rowId sequences apart. */
  seqSpace: number;
  /** First instant of the timeline. */
  origin: number;
  /** Buckets starting at or after this instant are never generated (bounds memory for far-off clocks). */
  horizon: number;
  turnsPerDay: number;
  model: ArrivalModel;
}

export class Timeline {
  private readonly blocks: RowBlock[] = [];
  private nextBucket: number;

  constructor(private readonly p: TimelineParams) {
    this.nextBucket = Math.floor(p.origin / BUCKET_MS);
  }

  /** Every block that can hold a turn visible at `now`, oldest bucket first. */
  blocksUpTo(now: number): readonly RowBlock[] {
    const last = Math.floor(Math.min(now, this.p.horizon - 1) / BUCKET_MS);
    while (this.nextBucket <= last) {
      const block = this.bucket(this.nextBucket++);
      if (block) this.blocks.push(block);
    }
    return this.blocks;
  }

  private bucket(b: number): RowBlock | null {
    const p = this.p;
    const perBucket = (p.turnsPerDay * BUCKET_MS) / 86_400_000;
    const quota = Math.floor((b + 1) * perBucket) - Math.floor(b * perBucket);
    if (quota <= 0) return null;
    if (quota >= POS_BITS) throw new Error(`traffic of ${p.turnsPerDay} turns a day exceeds ${POS_BITS - 1} turns an hour`);
    const stream = `${p.name}:${b}`;
    const rng = rngFor(p.seed, p.projectId, stream);
    const cols = new ColumnsBuilder(quota);
    const convStart: number[] = [];
    const bStart = b * BUCKET_MS;

    for (let made = 0; made < quota;) {
      const count = Math.min(drawTurnCount(rng), quota - made);
      // Stratified: the conversation holding turns [made, made + count) of the hour starts at a
      // random instant of that share of the hour, so the rate is steady at minute scale too.
      const start = bStart + Math.floor(((made + rng() * count) / quota) * BUCKET_MS);
      made += count;
      const main = drawMainCategory(rng);
      // Draws happen for dropped conversations too, so the kept ones do not depend on the origin.
      const keep = start >= p.origin;
      let ts = start;
      for (let turn = 0; turn < count; turn++) {
        if (turn > 0) ts += drawTurnGap(rng);
        const cls = drawTurnClass(rng, main);
        const delay = p.model.delay(rng);
        const ch = p.model.change(rng, cls, delay);
        if (!keep) continue;
        const unansweredFirst = ch ? ch.unansweredFirst : cls.unanswered;
        cols.push({
          ts, delay, change: ch ? Math.max(1, ch.afterMs) : 0, conv: convStart.length, turn,
          cat: cls.category, catFirst: ch ? ch.categoryFirst : cls.category,
          flags: (cls.unanswered ? UNANSWERED : 0) | (unansweredFirst ? UNANSWERED_FIRST : 0) | (cls.clarifying ? CLARIFYING : 0),
        });
      }
      if (keep) convStart.push(start);
    }
    const n = cols.length;
    if (n === 0) return null;

    // Sort by (visibleAt, generation index) through one packed float key: visibleAt - bucket start
    // is < 2^30 ms (delays ≤ 7 d) and the index < 2^21, so the key stays below 2^53 (exact).
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (cols.ts[i]! + cols.delay[i]! - bStart) * POS_BITS + i;
    keys.sort();
    const order = new Uint32Array(n);
    for (let k = 0; k < n; k++) order[k] = keys[k]! % POS_BITS;

    const src: TurnSource = {
      streamKey: hashSeed(p.seed, p.projectId, stream), site: p.site,
      convStart: Float64Array.from(convStart), mixKey: hashSeed(p.seed, p.projectId, stream, 'malformed'), changes: 'always',
    };
    return new RowBlock(src, cols.take(order), { kind: 'visible', seqBase: p.seqSpace * SEQ_SPACE + b * POS_BITS });
  }
}
