// A block of turns generated together (one hour of a timeline, or one time slice of the history):
// its compact columns (columns.ts) sorted by keyset order, and what is needed to render them.
// Index i is the turn's position in the block; key(i) = (time, seq) ascends with i:
// - timeline blocks: time = visibleAt(i), seq = seqBase + i (so the block is sorted by visibleAt,
//   and the turns visible at `now` are a prefix of it);
// - history blocks: time = the sandbox start for every turn, seq = seqs[i] (a seeded shuffle).
// The API's order is the merge of all blocks by key (keyset-merge.ts).
import type { Columns } from './columns.js';
import type { SiteLinks } from './corpus.js';
import { compareKeys, type OrderKey } from './row-ids.js';

/** A generator's identity and its per-conversation data, shared by its blocks. */
export interface TurnSource {
  /** hashSeed(seed, project, stream name): serve-time streams are (streamKey, conv[, turn]). */
  streamKey: number;
  /** The project's docs site (sources and page URLs). */
  site: SiteLinks;
  /** Per conversation number: the first turn's instant (the time part of the conversation id). */
  convStart: Float64Array;
  /** hashSeed(seed, project, stream, 'malformed'): mixed with (conv, turn) for malformation draws. */
  mixKey: number;
  /** 'always': later changes apply at their instant; 'live': only while live mode is on (history). */
  changes: 'always' | 'live';
}

export type BlockOrder =
  | { kind: 'visible'; seqBase: number }
  | { kind: 'fixed'; time: number; seqs: Uint32Array };

export class RowBlock {
  readonly length: number;
  /** Smallest and largest `ts` in the block (for skipping blocks outside a date window). */
  readonly minTs: number;
  readonly maxTs: number;

  constructor(readonly src: TurnSource, readonly cols: Columns, readonly order: BlockOrder) {
    this.length = cols.length;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < cols.length; i++) {
      const t = cols.ts[i]!;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    this.minTs = lo;
    this.maxTs = hi;
  }

  /** The visible-keyed blocks hold their visible turns as a prefix; fixed ones need a check per turn. */
  get sortedByVisibility(): boolean {
    return this.order.kind === 'visible';
  }

  visibleAt(i: number): number {
    return this.cols.ts[i]! + this.cols.delay[i]!;
  }

  keyTime(i: number): number {
    return this.order.kind === 'visible' ? this.visibleAt(i) : this.order.time;
  }

  keySeq(i: number): number {
    return this.order.kind === 'visible' ? this.order.seqBase + i : this.order.seqs[i]!;
  }

  /** Position of the first turn whose key is greater than `after` (binary search). */
  firstAfter(after: OrderKey | null): number {
    if (after === null) return 0;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.keyTime(mid), this.keySeq(mid), after.time, after.seq) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** For visible-keyed blocks: the number of turns visible at `now` (a prefix). Else the length. */
  visibleEnd(now: number): number {
    if (this.order.kind !== 'visible') return this.length;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.visibleAt(mid) <= now) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
