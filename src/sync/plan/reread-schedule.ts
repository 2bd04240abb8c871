// The re-read schedule: after an interval of event time was first read, late arrivals and later
// category/status changes are caught by re-reading it at fixed ages (measured from the interval's
// end). Each stage may wait up to `withinMs` past its age, so that adjacent due intervals are read
// together and pages are full. The last stage is the settle read: after it nothing is re-read.
import { UsageError } from '../../core/errors.js';
import { parseDuration } from '../../core/duration.js';
import type { ReadAges } from '../../core/intervals.js';
import { rereadsOf } from '../pipeline/definition.js';

export interface RereadStage {
  afterMs: number;
  withinMs: number;
}

/** Re-read 3 h after an interval ends (within 2 h), settle 24 h after (within 6 h). */
export const DEFAULT_REREADS: readonly RereadStage[] = [
  { afterMs: 3 * 3_600_000, withinMs: 2 * 3_600_000 },
  { afterMs: 24 * 3_600_000, withinMs: 6 * 3_600_000 },
];

/** "3h+2h,24h+6h" (age, optionally + slack), or "none": read once, never re-read. */
export function parseRereads(text: string): RereadStage[] {
  if (text.trim() === 'none') return [];
  const stages = text.split(',').map((part) => {
    const [after, within] = part.trim().split('+');
    if (!after) throw new UsageError(`invalid re-read schedule "${text}": use ages such as 3h+2h,24h+6h (or none)`);
    return { afterMs: parseDuration(after, 're-read age'), withinMs: within ? parseDuration(within, 're-read slack') : 0 };
  });
  for (let i = 1; i < stages.length; i++) {
    if (stages[i]!.afterMs <= stages[i - 1]!.afterMs) throw new UsageError(`invalid re-read schedule "${text}": ages must grow`);
  }
  return stages;
}

export function formatRereads(stages: readonly RereadStage[]): string {
  const h = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${Math.round(ms / 60_000)}m`);
  return stages.length ? stages.map((s) => (s.withinMs ? `${h(s.afterMs)}+${h(s.withinMs)}` : h(s.afterMs))).join(',') : 'none';
}

/** Age after which an interval's read settles it (0 with no re-reads: the first read settles). */
export function settleAgeMs(stages: readonly RereadStage[]): number {
  return stages.at(-1)?.afterMs ?? 0;
}

/** The stages' ages, ascending (the last settles): how a read's parts are scheduled (applyRead). */
export function readAgesMs(stages: readonly RereadStage[]): number[] {
  return stages.length ? stages.map((s) => s.afterMs) : [0];
}

/** What the settle rule needs of a pipeline's declaration (structural: src/sync/plan reads no pipeline module). */
export interface ScheduledPipeline {
  time: { granularity: 'event' | 'day' };
  rereads?: readonly RereadStage[] | null;
}

/**
 * THE settle rule, used where coverage is written (load/merge-batch.ts): how a completed read of a
 * pipeline enters the coverage map. Its own re-read schedule, else the configured one. An event
 * window is cut at each re-read age (a read's older parts are not re-read for that stage) and
 * settles past the last; a day stays one interval (it is re-read whole), settled by the last age.
 */
export function settleAges(p: ScheduledPipeline, configured: readonly RereadStage[]): ReadAges {
  const stages = rereadsOf(p, configured);
  return p.time.granularity === 'day' ? settleAgeMs(stages) : readAgesMs(stages);
}

export interface Due {
  /** 'settle' for the last stage due, else 'recheck'. */
  purpose: 'settle' | 'recheck';
  /** When the earliest pending stage became due, and the latest it should wait. */
  dueAt: number;
  deadline: number;
}

/** The re-read an interval [.., to) last read at `readAt` is due for at `now`, or null. */
export function dueReread(stages: readonly RereadStage[], to: number, readAt: number, now: number): Due | null {
  const next = stages.findIndex((s) => to + s.afterMs > readAt);
  if (next < 0) return null;
  const stage = stages[next]!;
  if (now < to + stage.afterMs) return null;
  // Stages whose age has passed too are served by this one read; the latest of them names it.
  let last = next;
  while (last + 1 < stages.length && to + stages[last + 1]!.afterMs <= now) last++;
  return {
    purpose: last === stages.length - 1 ? 'settle' : 'recheck',
    dueAt: to + stage.afterMs,
    deadline: to + stages[last]!.afterMs + stages[last]!.withinMs,
  };
}
