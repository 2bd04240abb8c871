// Live arrivals after the sandbox's start, as a pure function of the clock (no timers): minute
// k after start holds `liveTurnsPerMinute` turns derived from (seed, project, k) only, generated
// lazily the first time the clock passes that minute. Each turn becomes visible 1–10 minutes
// after its timestamp, ~2% hours late; ~15% get their category filled in after they appear.
import { drawTurnCount, drawTurnGap, makeConversation } from './conversation-factory.js';
import type { DatasetParams } from './history.js';
import { MALFORMED_KIND_COUNT } from './malformed.js';
import { chance, int, rngFor } from './prng.js';
import { makeRowId } from './row-ids.js';
import type { Row } from './row.js';

const MIN = 60_000;
const HOUR = 3_600_000;
/** Live data is generated for at most this long after start (bounds memory for far-off clocks). */
export const LIVE_HORIZON_MS = 7 * 24 * HOUR;
/** Live sequences start here so they never meet history sequences (row-ids.ts). */
const LIVE_SEQ_BASE = 2 ** 40;

export class LiveTimeline {
  private minutes = 0;
  /** Every generated live row, sorted by rowId (= by visibleAt, then sequence). */
  private rows: Row[] = [];

  constructor(private readonly p: DatasetParams, private readonly turnsPerMinute: number) {}

  /** All generated rows that can be visible at `now` are in the returned list (sorted by rowId). */
  rowsUpTo(now: number): readonly Row[] {
    const wanted = Math.min(Math.floor((now - this.p.startMs) / MIN) + 1, LIVE_HORIZON_MS / MIN);
    if (wanted > this.minutes) {
      for (let k = this.minutes; k < wanted; k++) this.rows.push(...this.minute(k));
      this.minutes = wanted;
      this.rows.sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0));
    }
    return this.rows;
  }

  private minute(k: number): Row[] {
    const rate = this.turnsPerMinute;
    const seqBase = Math.floor(k * rate);
    const quota = Math.floor((k + 1) * rate) - seqBase;
    const rng = rngFor(this.p.seed, this.p.projectId, 'live', k);
    const flaws = rngFor(this.p.seed, this.p.projectId, 'live-malformed', k);
    const chunkStart = this.p.startMs + k * MIN;
    const out: Row[] = [];
    while (out.length < quota) {
      const count = Math.min(drawTurnCount(rng), quota - out.length);
      const timestamps = [chunkStart + Math.floor(rng() * MIN)];
      for (let i = 1; i < count; i++) timestamps.push(timestamps[i - 1]! + drawTurnGap(rng));
      for (const draft of makeConversation(rng, this.p.siteUrl, timestamps)) {
        const late = chance(rng, 0.02);
        const visibleAt = draft.timestampMs + (late ? int(rng, HOUR, 4 * HOUR) : int(rng, MIN, 10 * MIN));
        const recategorized = draft.record.queryCategory !== null && chance(rng, 0.15);
        out.push({
          rowId: makeRowId(visibleAt, this.p.tag, LIVE_SEQ_BASE + seqBase + out.length),
          timestampMs: draft.timestampMs,
          visibleAt,
          categorizedAt: recategorized ? visibleAt + int(rng, 2 * MIN, 60 * MIN) : null,
          record: draft.record,
          malformU: flaws(),
          malformKind: int(flaws, 0, MALFORMED_KIND_COUNT - 1),
        });
      }
    }
    return out;
  }
}
