// The coverage map's interval arithmetic (pure; times in ms). An interval [from, to) of event time
// was read completely; `readAt` is its last complete read. Intervals of one stream never overlap
// and are kept sorted. A read of a window updates the intervals it overlaps (only the overlapping
// part takes the new read time: each interval keeps its own re-read schedule) and adds what was not
// covered yet. Settled neighbours are joined so the map stays small.

export interface CoverageInterval {
  from: number;
  to: number;
  firstReadAt: number;
  readAt: number;
  /** Complete reads of this interval so far. */
  reads: number;
  /** Rows the read that made this interval found; null when not known (a part of a larger read). */
  rows: number | null;
  /** Read at least the settle age after its end: no re-read is due any more. */
  settled: boolean;
}

export interface CompletedRead {
  from: number;
  to: number;
  at: number;
  /** Rows found; null when not known (a read the planner only assumes). */
  rows: number | null;
}

/**
 * Ages (ms after an interval's end) at which its re-reads fall due, ascending; the last one settles
 * it: a read is cut at each (see below). A plain number is the settle age alone, and a read is
 * never cut (a day window is one aggregate: it is re-read whole).
 */
export type ReadAges = number | readonly number[];

export function applyRead(map: readonly CoverageInterval[], read: CompletedRead, ages: ReadAges): CoverageInterval[] {
  const stageAges = typeof ages === 'number' ? [] : ages;
  const settleAgeMs = typeof ages === 'number' ? ages : (ages.at(-1) ?? 0);
  const out: CoverageInterval[] = [];
  const inside: CoverageInterval[] = [];
  for (const iv of map) {
    if (iv.to <= read.from || iv.from >= read.to) {
      out.push(iv);
      continue;
    }
    // A part cut off keeps its own last read; with its end moved earlier it may be settled now.
    if (iv.from < read.from) out.push({ ...iv, to: read.from, rows: null, settled: iv.settled || settled(read.from, iv.readAt, settleAgeMs) });
    if (iv.to > read.to) out.push({ ...iv, from: read.to, rows: null });
    const from = Math.max(iv.from, read.from);
    const to = Math.min(iv.to, read.to);
    inside.push({ ...iv, from, to, readAt: read.at, reads: iv.reads + 1, rows: null, settled: settled(to, read.at, settleAgeMs) });
  }
  // What the read covered for the first time.
  let cursor = read.from;
  for (const iv of [...inside].sort((a, b) => a.from - b.from)) {
    if (iv.from > cursor) inside.push(fresh(cursor, iv.from, read, settleAgeMs));
    cursor = Math.max(cursor, iv.to);
  }
  if (cursor < read.to) inside.push(fresh(cursor, read.to, read, settleAgeMs));
  // A read that made exactly one interval knows its row count.
  if (inside.length === 1) inside[0]!.rows = read.rows;
  // A window is scheduled by its end, but its older part was already as old as a re-read stage when
  // it was read: cut the read parts at those ages, so that part is not read again for that stage
  // (and the part older than the settle age is settled now).
  const cuts = stageAges.map((age) => read.at - age).filter((t) => t > read.from && t < read.to);
  const parts = cuts.length ? inside.flatMap((iv) => cutAt(iv, cuts, read, settleAgeMs)) : inside;
  return coalesce([...out, ...parts].sort((a, b) => a.from - b.from));
}

function cutAt(iv: CoverageInterval, cuts: readonly number[], read: CompletedRead, settleAgeMs: number): CoverageInterval[] {
  const points = cuts.filter((t) => t > iv.from && t < iv.to).sort((a, b) => a - b);
  if (!points.length) return [iv];
  const bounds = [iv.from, ...points, iv.to];
  return bounds.slice(1).map((to, i) => ({
    ...iv, from: bounds[i]!, to,
    // An empty read is empty in every part; otherwise the parts' counts are unknown.
    rows: iv.rows === 0 ? 0 : null,
    settled: settled(to, read.at, settleAgeMs),
  }));
}

function fresh(from: number, to: number, read: CompletedRead, settleAgeMs: number): CoverageInterval {
  return { from, to, firstReadAt: read.at, readAt: read.at, reads: 1, rows: null, settled: settled(to, read.at, settleAgeMs) };
}

export function settled(to: number, readAt: number, settleAgeMs: number): boolean {
  return readAt - to >= settleAgeMs;
}

/** Joins adjacent settled intervals (an empty one stays apart: it marks where history ran out). */
export function coalesce(sorted: readonly CoverageInterval[]): CoverageInterval[] {
  const out: CoverageInterval[] = [];
  for (const iv of sorted) {
    const last = out.at(-1);
    if (last && last.to === iv.from && last.settled && iv.settled && (last.rows === 0) === (iv.rows === 0)) {
      out[out.length - 1] = {
        ...last,
        to: iv.to,
        firstReadAt: Math.min(last.firstReadAt, iv.firstReadAt),
        readAt: Math.max(last.readAt, iv.readAt),
        reads: Math.min(last.reads, iv.reads),
        rows: last.rows === null || iv.rows === null ? null : last.rows + iv.rows,
      };
    } else out.push({ ...iv });
  }
  return out;
}

/** Parts of [from, to) no interval covers, oldest first. */
export function gaps(map: readonly CoverageInterval[], from: number, to: number): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let cursor = from;
  for (const iv of map) {
    if (iv.to <= cursor) continue;
    if (iv.from >= to) break;
    if (iv.from > cursor) out.push({ from: cursor, to: Math.min(iv.from, to) });
    cursor = Math.max(cursor, iv.to);
    if (cursor >= to) break;
  }
  if (cursor < to) out.push({ from: cursor, to });
  return out;
}
