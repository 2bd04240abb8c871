// Ground truth at scale, without rendering records: what a harness needs to check a warehouse of
// millions of turns (keys, current category and status) and to count what became visible between
// two runs. Only valid turns count (malformed ones are what the client must quarantine).
import { categoryOf } from './conversation-factory.js';
import type { RowBlock } from './row-block.js';
import { isMalformed, rowConversationId, servedClass, type RenderOptions } from './row.js';

/** The valid turns visible at an instant, column-wise; index k is one turn in every column. */
export interface TruthKeys {
  count: number;
  /** Conversation id (turns of a conversation share it); with timestampMs, the turn's key. */
  id: string[];
  /** The turn's instant (ms since epoch), whatever offset its `timestamp` is served with. */
  timestampMs: Float64Array;
  /** When the turn became visible (ms). */
  visibleAt: Float64Array;
  /** The current version's category and status (after any later change that has happened). */
  queryCategory: (string | null)[];
  resolutionStatus: ('answered' | 'unanswered')[];
}

/** Restricts truth to turns whose instant is in [fromMs, toMs) (either bound optional). */
export interface TruthRange {
  fromMs?: number | null;
  toMs?: number | null;
}

/** Calls `fn` for each valid turn visible at `at` within the range, block by block. */
function forEachValid(
  blocks: readonly RowBlock[], at: number, malformedRate: number, range: TruthRange, fn: (b: RowBlock, pos: number) => void,
): void {
  const from = range.fromMs ?? -Infinity;
  const to = range.toMs ?? Infinity;
  for (const b of blocks) {
    if (b.length === 0 || b.maxTs < from || b.minTs >= to) continue;
    const inside = b.minTs >= from && b.maxTs < to;
    const { ts, delay } = b.cols;
    for (let i = 0, end = b.visibleEnd(at); i < end; i++) {
      if (!inside && (ts[i]! < from || ts[i]! >= to)) continue;
      if (ts[i]! + delay[i]! > at) continue;
      if (isMalformed(b, i, malformedRate)) continue;
      fn(b, i);
    }
  }
}

/** Number of valid turns visible at `at` (O(blocks) for visible-keyed blocks without malformation or range). */
export function countVisible(blocks: readonly RowBlock[], at: number, malformedRate: number, range: TruthRange = {}): number {
  const whole = range.fromMs == null && range.toMs == null && malformedRate <= 0;
  let n = 0;
  if (whole) {
    const rest: RowBlock[] = [];
    for (const b of blocks) {
      if (b.sortedByVisibility) n += b.visibleEnd(at);
      else rest.push(b);
    }
    blocks = rest;
  }
  forEachValid(blocks, at, malformedRate, range, () => n++);
  return n;
}

/** The valid turns visible at `o.now`, in their version at that instant, grouped by block (not the served order). */
export function collectTruthKeys(blocks: readonly RowBlock[], o: RenderOptions, range: TruthRange = {}): TruthKeys {
  const count = countVisible(blocks, o.now, o.malformedRate, range);
  const out: TruthKeys = {
    count, id: new Array<string>(count), timestampMs: new Float64Array(count), visibleAt: new Float64Array(count),
    queryCategory: new Array<string | null>(count), resolutionStatus: new Array<'answered' | 'unanswered'>(count),
  };
  let k = 0;
  let ids = new Map<number, string>();
  let idsOf: RowBlock['src'] | null = null;
  forEachValid(blocks, o.now, o.malformedRate, range, (b, i) => {
    // One id per conversation of a source (history slices share theirs), computed once.
    if (b.src !== idsOf) {
      ids = new Map();
      idsOf = b.src;
    }
    const conv = b.cols.conv[i]!;
    let id = ids.get(conv);
    if (id === undefined) ids.set(conv, (id = rowConversationId(b, i)));
    const cls = servedClass(b, i, o);
    out.id[k] = id;
    out.timestampMs[k] = b.cols.ts[i]!;
    out.visibleAt[k] = b.visibleAt(i);
    out.queryCategory[k] = categoryOf(cls.category);
    out.resolutionStatus[k] = cls.unanswered ? 'unanswered' : 'answered';
    k++;
  });
  return out;
}
