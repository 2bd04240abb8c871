// All turns of one project as compact blocks, and the keyset reads over them. Without traffic: the
// `conversations` history (static, visible at start) plus, in live mode, the live timeline from
// start on. With traffic: one timeline from `historyDays` before start on, and nothing else.
// Timeline data exists up to 7 days after start (bounds memory for far-off clocks).
import { liveModel, trafficModel } from './arrival-models.js';
import { docsSiteUrl, siteLinks } from './corpus.js';
import { buildHistory } from './history.js';
import { KeysetMerge, type ReadSpec } from './keyset-merge.js';
import type { TrafficOptions } from './options.js';
import type { RowBlock } from './row-block.js';
import { makeRowId, projectTag } from './row-ids.js';
import type { RowRef } from './row.js';
import { Timeline } from './timeline.js';

const DAY = 86_400_000;
/** Timelines generate no bucket starting this long after the sandbox's start or later. */
export const TIMELINE_HORIZON_MS = 7 * DAY;

export interface DatasetConfig {
  seed: number;
  projectId: string;
  startMs: number;
  conversations: number;
  historyDays: number;
  liveTurnsPerMinute: number;
  traffic: TrafficOptions | null;
}

export class ProjectDataset {
  private readonly tag: string;
  private readonly history: readonly RowBlock[];
  private readonly timeline: Timeline;
  private readonly traffic: boolean;

  constructor(c: DatasetConfig) {
    const common = { seed: c.seed, projectId: c.projectId, site: siteLinks(docsSiteUrl(c.projectId)), horizon: c.startMs + TIMELINE_HORIZON_MS };
    this.tag = projectTag(c.seed, c.projectId);
    this.traffic = c.traffic !== null;
    if (c.traffic) {
      this.history = [];
      this.timeline = new Timeline({
        ...common, name: 'traffic', seqSpace: 2, origin: c.startMs - c.historyDays * DAY,
        turnsPerDay: c.traffic.turnsPerDay, model: trafficModel(c.traffic),
      });
    } else {
      this.history = buildHistory({ ...common, startMs: c.startMs, turns: c.conversations, historyDays: c.historyDays });
      this.timeline = new Timeline({
        ...common, name: 'live', seqSpace: 1, origin: c.startMs, turnsPerDay: c.liveTurnsPerMinute * 1440, model: liveModel,
      });
    }
  }

  /** The blocks that can hold a turn visible at `now` (generating timeline buckets up to `now`). */
  blocks(now: number, live: boolean): readonly RowBlock[] {
    if (this.traffic) return this.timeline.blocksUpTo(now);
    return live ? [...this.history, ...this.timeline.blocksUpTo(now)] : this.history;
  }

  /** A lazy keyset read: the visible turns matching `spec`, in rowId order. */
  read(spec: ReadSpec, live: boolean): KeysetMerge {
    return new KeysetMerge(this.blocks(spec.now, live), spec);
  }

  /** The keyset position of a turn, as the ULID the API hands out as a cursor. */
  rowId(ref: RowRef): string {
    return makeRowId(ref.block.keyTime(ref.pos), this.tag, ref.block.keySeq(ref.pos));
  }
}
