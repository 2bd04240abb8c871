// The state of the analytics twin: options (changeable at run time), the start instant, each
// project's rows, issued cursors, rate windows, the request log and the fault stream. Everything
// time-dependent reads the injected clock, so the served data is a pure function of it.
import { conversationTurnSchema, type ConversationTurn } from '../../contracts/analytics.js';
import { trafficProblems } from './arrival-models.js';
import { CursorRegistry } from './cursors.js';
import { ProjectDataset } from './dataset.js';
import { FaultPicker } from './faults.js';
import type { KeysetMerge, ReadSpec } from './keyset-merge.js';
import type { AssistantQuery } from './query-params.js';
import type { SandboxOptions } from './options.js';
import { SlidingWindowLimiter } from './rate-limiter.js';
import { RequestLog } from './request-log.js';
import { parseRowId } from './row-ids.js';
import { isMalformed, render, type RenderOptions, type RowRef } from './row.js';
import { collectTruthKeys, countVisible, type TruthKeys, type TruthRange } from './truth-keys.js';
import { findThread, type AssistantThread } from './assistant-thread.js';
import { callerStats, type CallerStats } from './caller-stats.js';
import { SiteActivity, siteProblems } from './site-activity.js';

export interface AssistantPage {
  conversations: Record<string, unknown>[];
  nextCursor: string | null;
  hasMore: boolean;
  examined: number;
}

/** Options that shape the data: changing one regenerates the datasets and forgets cursors. */
const DATA_SHAPING = ['seed', 'conversations', 'historyDays', 'liveTurnsPerMinute', 'traffic', 'site'] as const;
/** Fixed once the server listens. */
const FIXED = ['host', 'port', 'clock'] as const;

export class AnalyticsTwin {
  readonly startMs: number;
  readonly cursors = new CursorRegistry();
  readonly limiter = new SlidingWindowLimiter();
  readonly log = new RequestLog();
  readonly faults: FaultPicker;
  private readonly datasets = new Map<string, ProjectDataset>();
  private readonly sites = new Map<string, SiteActivity>();

  /** The padded turn of each project under `hugeRecordBytes` (limit-faults.ts). */
  readonly hugeTurns = new Map<string, string>();
  /** Cursors of endless feedback chains issued so far (limit-faults.ts). */
  endlessIssued = 0;

  /** `opts` is kept by reference (the static export handler shares it); configure() mutates it. */
  constructor(readonly opts: SandboxOptions) {
    checkTraffic(opts);
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

  /** A keyset read of a project's visible turns (throws on an unknown project). */
  read(projectId: string, spec: ReadSpec): KeysetMerge {
    return this.dataset(projectId).read(spec, this.opts.live);
  }

  /**
   * One page of GET …/assistant at `now` (the cursor, if any, already checked against the
   * registry): up to `limit` visible turns after it, in rowId order, rendered. `examined` is how
   * many turns the read looked at (what it cost).
   */
  page(projectId: string, q: AssistantQuery, now = this.now()): AssistantPage {
    const ds = this.dataset(projectId);
    const merge = ds.read({ now, fromMs: q.fromMs, toMs: q.toMs, after: q.cursor === null ? null : parseRowId(q.cursor) }, this.opts.live);
    const refs: RowRef[] = [];
    while (refs.length <= q.limit) {
      const ref = merge.next();
      if (ref === null) break;
      refs.push(ref);
    }
    const hasMore = refs.length > q.limit;
    const pageRefs = refs.slice(0, q.limit);
    const ro = this.renderOptions(now);
    const last = pageRefs[pageRefs.length - 1];
    return {
      conversations: pageRefs.map((r) => render(r.block, r.pos, ro)),
      nextCursor: hasMore && last ? ds.rowId(last) : null,
      hasMore,
      examined: merge.examined,
    };
  }

  /** Valid visible turns, as served (parsed: `responseType` filled in), in rowId order. */
  truth(projectId: string): ConversationTurn[] {
    const ro = this.renderOptions();
    const out: ConversationTurn[] = [];
    this.forEachVisible(projectId, ro, (rec, bad) => {
      if (!bad) out.push(conversationTurnSchema.parse(rec()));
    });
    return out;
  }

  /** Malformed visible records, exactly as served, in rowId order. */
  malformed(projectId: string): unknown[] {
    const ro = this.renderOptions();
    const out: unknown[] = [];
    this.forEachVisible(projectId, ro, (rec, bad) => {
      if (bad) out.push(rec());
    });
    return out;
  }

  /** Compact truth: the valid turns visible now, in their current version (truth-keys.ts). */
  truthKeys(projectId: string, range: TruthRange = {}): TruthKeys {
    const ro = this.renderOptions();
    return collectTruthKeys(this.dataset(projectId).blocks(ro.now, ro.live), ro, range);
  }

  /** Number of valid turns visible at `atMs` (default now). */
  visibleCount(projectId: string, atMs = this.now(), range: TruthRange = {}): number {
    const blocks = this.dataset(projectId).blocks(Math.max(atMs, this.now()), this.opts.live);
    return countVisible(blocks, atMs, this.opts.malformedRate, range);
  }

  /** GET …/assistant/caller-stats for [fromMs, toMs) at `now` (caller-stats.ts). */
  callerStats(projectId: string, fromMs: number | null, toMs: number | null, now = this.now()): CallerStats {
    return callerStats(this.dataset(projectId).blocks(now, this.opts.live), now, fromMs, toMs);
  }

  /** GET …/assistant/threads/{threadId} at `now`, null when unknown (assistant-thread.ts). */
  thread(projectId: string, threadId: string, now = this.now()): AssistantThread | null {
    return findThread(this.dataset(projectId).blocks(now, this.opts.live), threadId, now, this.opts.live);
  }

  /** The project's site activity: feedback, searches, views, visitors (throws on an unknown project). */
  site(projectId: string): SiteActivity {
    if (!this.hasProject(projectId)) throw new Error(`unknown sandbox project "${projectId}"`);
    let site = this.sites.get(projectId);
    if (!site) {
      const o = this.opts;
      site = new SiteActivity({ seed: o.seed, projectId, startMs: this.startMs, historyDays: o.historyDays, site: o.site });
      this.sites.set(projectId, site);
    }
    return site;
  }

  private forEachVisible(projectId: string, ro: RenderOptions, fn: (rec: () => Record<string, unknown>, malformed: boolean) => void): void {
    const merge = this.read(projectId, { now: ro.now, fromMs: null, toMs: null, after: null });
    for (let ref = merge.next(); ref !== null; ref = merge.next()) {
      const { block, pos } = ref;
      fn(() => render(block, pos, ro), isMalformed(block, pos, ro.malformedRate));
    }
  }

  configure(patch: Partial<SandboxOptions>): void {
    checkTraffic({ ...this.opts, ...patch });
    const reshape = DATA_SHAPING.some((k) => patch[k] !== undefined && patch[k] !== this.opts[k]);
    const { staticExport, ...rest } = patch;
    for (const k of FIXED) delete rest[k];
    Object.assign(this.opts, rest);
    // In place, so a handler holding `opts.staticExport` sees the change.
    if (staticExport) Object.assign(this.opts.staticExport, staticExport);
    if (reshape) {
      this.datasets.clear();
      this.sites.clear();
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
        historyDays: o.historyDays, liveTurnsPerMinute: o.liveTurnsPerMinute, traffic: o.traffic ?? null,
      });
      this.datasets.set(projectId, ds);
    }
    return ds;
  }
}

function checkTraffic(o: Pick<SandboxOptions, 'traffic' | 'site'>): void {
  const problems = o.traffic ? trafficProblems(o.traffic) : [];
  if (problems.length > 0) throw new Error(`invalid sandbox traffic: ${problems.join('; ')}`);
  const site = siteProblems(o.site);
  if (site.length > 0) throw new Error(`invalid sandbox site: ${site.join('; ')}`);
}
