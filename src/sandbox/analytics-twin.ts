// The state of the analytics twin: options (changeable at run time), the start instant, each
// project's rows, issued cursors, rate windows, the request log and the fault stream. Everything
// time-dependent reads the injected clock, so the served data is a pure function of it.
import { conversationTurnSchema, type ConversationTurn } from '../contracts/analytics.js';
import { CursorRegistry } from './cursors.js';
import { ProjectDataset, type ReadFilter } from './dataset.js';
import { FaultPicker } from './faults.js';
import type { SandboxOptions } from './options.js';
import { SlidingWindowLimiter } from './rate-limiter.js';
import { RequestLog } from './request-log.js';
import { isMalformed, render, type RenderOptions, type Row } from './row.js';

/** Options that shape the data: changing one regenerates the datasets and forgets cursors. */
const DATA_SHAPING = ['seed', 'conversations', 'historyDays', 'liveTurnsPerMinute'] as const;
/** Fixed once the server listens. */
const FIXED = ['host', 'port', 'clock'] as const;

export class AnalyticsTwin {
  readonly startMs: number;
  readonly cursors = new CursorRegistry();
  readonly limiter = new SlidingWindowLimiter();
  readonly log = new RequestLog();
  readonly faults: FaultPicker;
  private readonly datasets = new Map<string, ProjectDataset>();

  /** `opts` is kept by reference (the static export handler shares it); configure() mutates it. */
  constructor(readonly opts: SandboxOptions) {
    this.startMs = opts.clock.now().getTime();
    this.faults = new FaultPicker(opts.seed);
  }

  now(): number {
    return this.opts.clock.now().getTime();
  }

  isAcceptedKey(key: string): boolean {
    return this.opts.apiKeys.includes(key) || this.opts.nonEnterpriseKeys.includes(key);
  }

  hasProject(projectId: string): boolean {
    return this.opts.projects.includes(projectId);
  }

  renderOptions(now = this.now()): RenderOptions {
    return { now, live: this.opts.live, malformedRate: this.opts.malformedRate };
  }

  /** Visible rows of a project (throws on an unknown project). */
  rows(projectId: string, f: Omit<ReadFilter, 'live'>): Generator<Row> {
    return this.dataset(projectId).rows({ ...f, live: this.opts.live });
  }

  /** Valid visible turns, as served (parsed: `responseType` filled in), in rowId order. */
  truth(projectId: string): ConversationTurn[] {
    const now = this.now();
    const ro = this.renderOptions(now);
    const out: ConversationTurn[] = [];
    for (const row of this.rows(projectId, { now, fromMs: null, toMs: null, after: null })) {
      if (!isMalformed(row, ro.malformedRate)) out.push(conversationTurnSchema.parse(render(row, ro)));
    }
    return out;
  }

  /** Malformed visible records, exactly as served, in rowId order. */
  malformed(projectId: string): unknown[] {
    const now = this.now();
    const ro = this.renderOptions(now);
    const out: unknown[] = [];
    for (const row of this.rows(projectId, { now, fromMs: null, toMs: null, after: null })) {
      if (isMalformed(row, ro.malformedRate)) out.push(render(row, ro));
    }
    return out;
  }

  configure(patch: Partial<SandboxOptions>): void {
    const reshape = DATA_SHAPING.some((k) => patch[k] !== undefined && patch[k] !== this.opts[k]);
    const { staticExport, ...rest } = patch;
    for (const k of FIXED) delete rest[k];
    Object.assign(this.opts, rest);
    // In place, so a handler holding `opts.staticExport` sees the change.
    if (staticExport) Object.assign(this.opts.staticExport, staticExport);
    if (reshape) {
      this.datasets.clear();
      this.cursors.expireAll();
    }
  }

  private dataset(projectId: string): ProjectDataset {
    if (!this.hasProject(projectId)) throw new Error(`unknown sandbox project "${projectId}"`);
    let ds = this.datasets.get(projectId);
    if (!ds) {
      const o = this.opts;
      ds = new ProjectDataset({
        seed: o.seed, projectId, startMs: this.startMs, conversations: o.conversations,
        historyDays: o.historyDays, liveTurnsPerMinute: o.liveTurnsPerMinute,
      });
      this.datasets.set(projectId, ds);
    }
    return ds;
  }
}
