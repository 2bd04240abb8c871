// The compact per-turn data of the sandbox: typed arrays, one entry per turn, no record objects.
// A generator pushes turns in generation order into a ColumnsBuilder, then takes them out in the
// order its blocks want (row-block.ts). About 24 bytes a turn.
//
// Layout (index i = one turn):
//   ts[i]        Float64  the turn's instant, ms since epoch: what dateFrom/dateTo filter on
//   delay[i]     Uint32   visibleAt - ts, ms: the turn is served from ts + delay on (late arrival)
//   change[i]    Uint32   changeAt - ts, ms; 0 = no later change. Before changeAt the turn is
//                         served in its first version (catFirst, UNANSWERED_FIRST), from it on in
//                         its final one (cat, UNANSWERED)
//   conv[i]      Uint32   conversation number in its stream (the render key, with turn)
//   turn[i]      Uint8    turn number within the conversation
//   cat[i]       Uint8    final category code (0 = null, k = CATEGORIES[k - 1])
//   catFirst[i]  Uint8    category code of the first version
//   flags[i]     Uint8    UNANSWERED | UNANSWERED_FIRST | CLARIFYING (conversation-factory.ts)

export interface Columns {
  readonly length: number;
  readonly ts: Float64Array;
  readonly delay: Uint32Array;
  readonly change: Uint32Array;
  readonly conv: Uint32Array;
  readonly turn: Uint8Array;
  readonly cat: Uint8Array;
  readonly catFirst: Uint8Array;
  readonly flags: Uint8Array;
}

/** Longest delay or change offset a column holds (Uint32 ms is 49 days; models stay far below). */
export const MAX_OFFSET_MS = 2 ** 32 - 1;

function allocate(n: number): Columns {
  return {
    length: n,
    ts: new Float64Array(n),
    delay: new Uint32Array(n),
    change: new Uint32Array(n),
    conv: new Uint32Array(n),
    turn: new Uint8Array(n),
    cat: new Uint8Array(n),
    catFirst: new Uint8Array(n),
    flags: new Uint8Array(n),
  };
}

export interface TurnFields {
  ts: number;
  delay: number;
  change: number;
  conv: number;
  turn: number;
  cat: number;
  catFirst: number;
  flags: number;
}

export class ColumnsBuilder {
  private readonly c: Columns;
  private n = 0;

  /** `capacity`: the exact or maximum number of turns the generator will push. */
  constructor(capacity: number) {
    this.c = allocate(capacity);
  }

  get length(): number {
    return this.n;
  }

  get ts(): Float64Array {
    return this.c.ts;
  }

  get delay(): Uint32Array {
    return this.c.delay;
  }

  push(t: TurnFields): void {
    const i = this.n++;
    if (t.delay > MAX_OFFSET_MS || t.change > MAX_OFFSET_MS) throw new Error('delay or change offset out of range');
    const c = this.c;
    c.ts[i] = t.ts;
    c.delay[i] = t.delay;
    c.change[i] = t.change;
    c.conv[i] = t.conv;
    c.turn[i] = t.turn;
    c.cat[i] = t.cat;
    c.catFirst[i] = t.catFirst;
    c.flags[i] = t.flags;
  }

  /** New columns holding the pushed turns in the given order (order[k] = generation index). */
  take(order: ArrayLike<number>): Columns {
    const out = allocate(order.length);
    const c = this.c;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      out.ts[k] = c.ts[i]!;
      out.delay[k] = c.delay[i]!;
      out.change[k] = c.change[i]!;
      out.conv[k] = c.conv[i]!;
      out.turn[k] = c.turn[i]!;
      out.cat[k] = c.cat[i]!;
      out.catFirst[k] = c.catFirst[i]!;
      out.flags[k] = c.flags[i]!;
    }
    return out;
  }
}

/** Views of rows [from, to) of `c` (no copy). */
export function sliceColumns(c: Columns, from: number, to: number): Columns {
  return {
    length: to - from,
    ts: c.ts.subarray(from, to),
    delay: c.delay.subarray(from, to),
    change: c.change.subarray(from, to),
    conv: c.conv.subarray(from, to),
    turn: c.turn.subarray(from, to),
    cat: c.cat.subarray(from, to),
    catFirst: c.catFirst.subarray(from, to),
    flags: c.flags.subarray(from, to),
  };
}
