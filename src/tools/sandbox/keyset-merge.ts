// Keyset reads over blocks: the turns visible at `now` that match a date window and sort after a
// cursor, in key order, as a lazy merge of one cursor per block (a binary heap on each block's
// next key). What keeps a read cheap over millions of turns:
// - a block whose timestamp range misses the window is skipped whole, so a narrow window reads
//   only the few blocks (hours of a timeline, slices of the history) it meets;
// - each block starts at the cursor's position (binary search), never at its beginning;
// - a block inside the window needs no timestamp check, and a visible-keyed block no visibility
//   check past its visible prefix.
import type { RowBlock } from './row-block.js';
import { compareKeys, type OrderKey } from './row-ids.js';
import type { RowRef } from './row.js';

export interface ReadSpec {
  now: number;
  /** Inclusive lower bound on the turn's instant (ms), or null. */
  fromMs: number | null;
  /** Exclusive upper bound on the turn's instant (ms), or null. */
  toMs: number | null;
  /** Only turns whose key is greater (null = from the beginning). */
  after: OrderKey | null;
}

class BlockCursor {
  pos: number;
  readonly end: number;
  time = 0;
  seq = 0;

  constructor(
    readonly block: RowBlock,
    private readonly spec: ReadSpec,
    private readonly checkWindow: boolean,
    private readonly stats: { examined: number },
  ) {
    this.pos = block.firstAfter(spec.after);
    this.end = block.visibleEnd(spec.now);
  }

  /** Moves to the first matching turn at or after `pos`; false when the block has none left. */
  settle(): boolean {
    const { ts, delay } = this.block.cols;
    const { now, fromMs, toMs } = this.spec;
    const checkVisible = !this.block.sortedByVisibility;
    for (; this.pos < this.end; this.pos++) {
      this.stats.examined++;
      const t = ts[this.pos]!;
      if (this.checkWindow && ((fromMs !== null && t < fromMs) || (toMs !== null && t >= toMs))) continue;
      if (checkVisible && t + delay[this.pos]! > now) continue;
      this.time = this.block.keyTime(this.pos);
      this.seq = this.block.keySeq(this.pos);
      return true;
    }
    return false;
  }
}

const before = (a: BlockCursor, b: BlockCursor) => compareKeys(a.time, a.seq, b.time, b.seq) < 0;

export class KeysetMerge {
  /** Turns looked at so far (matching or not): what a read costs. */
  examined = 0;
  /** Blocks that met the window. */
  readonly blocksRead: number;
  private readonly heap: BlockCursor[] = [];

  constructor(blocks: readonly RowBlock[], spec: ReadSpec) {
    const { fromMs, toMs } = spec;
    let met = 0;
    for (const b of blocks) {
      if (b.length === 0 || (fromMs !== null && b.maxTs < fromMs) || (toMs !== null && b.minTs >= toMs)) continue;
      met++;
      const inside = (fromMs === null || b.minTs >= fromMs) && (toMs === null || b.maxTs < toMs);
      const c = new BlockCursor(b, spec, !inside, this);
      if (c.settle()) this.heap.push(c);
    }
    this.blocksRead = met;
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The next matching turn in key order, or null when there is none. */
  next(): RowRef | null {
    const top = this.heap[0];
    if (!top) return null;
    const ref: RowRef = { block: top.block, pos: top.pos };
    top.pos++;
    if (!top.settle()) {
      const last = this.heap.pop()!;
      if (last === top) return ref;
      this.heap[0] = last;
    }
    this.siftDown(0);
    return ref;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l]!, h[m]!)) m = l;
      if (r < h.length && before(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
