// The merger: landed pages are merged in batches (many pages per transaction, bounded by rows and
// pages) while fetching goes on. A batch starts as soon as the previous one committed, so under a
// fast fetch batches grow, and under a slow one (the real API's budget) each page is merged soon
// after it lands. A stream whose pages fail to merge keeps them landed and is reported; the others
// go on. The merger is the one owner of "landed but not merged": it recovers what a crashed run
// landed (recover) and says where a stream whose pages wait for the rest of their window resumes.
import { statSync } from 'node:fs';
import type { Clock } from '../../core/clock.js';
import { FatalError, messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { streamKey, type PipelineDefinition } from '../pipeline/definition.js';
import type { LandedFile } from '../pipeline/landed-page.js';
import type { RereadStage } from '../plan/reread-schedule.js';
import { mergeBatch, type MergedBatch, type MergeGroup } from './merge-batch.js';
import { repairPage } from './merge-rescue.js';
import { stepMemoryLimit, withMemoryLimit } from '../../warehouse/memory-pool.js';
import { isOutOfMemory, outOfMemoryLine } from '../../warehouse/out-of-memory.js';

import { readSyncState, type StreamState } from './sync-state.js';
import { DEFAULT_MERGE_BATCH_ROWS } from './merge-defaults.js';
import type { Writer } from '../../warehouse/writer.js';

/** The landing zone as the merger uses it: src/sync/land/landing-zone.ts, passed in by the run. */
interface LandedPages {
  removeTemp(): void;
  streams(): { projectId: string; pipeline: string }[];
  list(s: { projectId: string; pipeline: string }): LandedFile[];
  release(files: readonly LandedFile[], keep: boolean): void;
}

export interface MergerDeps {
  writer: Writer;
  zone: LandedPages;
  pipelines: readonly PipelineDefinition[];
  clock: Clock;
  logger: Logger;
  /** Keep merged pages (compressed) for rebuild instead of deleting them. */
  keepRaw: boolean;
  /** The configured re-read schedule: each pipeline's declaration and the plan's settle rule do the rest. */
  rereads: readonly RereadStage[];
  /** Largest batch, in records and in pages. */
  maxBatchRows?: number;
  maxBatchPages?: number;
  onMerged?: (batch: MergedBatch, files: readonly LandedFile[]) => void;
  /**
   * DuckDB's memory_limit, named in the line an out-of-memory stops a stream with. Batches merge
   * under a smaller pool derived from it (memory-pool.ts stepMemoryLimit), and at the whole limit
   * when they need it; unset: at whatever the connection has.
   */
  memoryLimit?: string;
}

export interface MergerStats {
  batches: number;
  pages: number;
  rows: number;
  ms: number;
}

/** A landed page this large (bytes) is merged in a batch of its own. */
export const ALONE_BYTES = 16 * 1024 * 1024;
const large = (f: LandedFile): boolean => {
  try {
    return statSync(f.path).size > ALONE_BYTES;
  } catch {
    return false;
  }
};

const OOM_STEP = 'merging landed pages';
const OOM_PREFIX = `DuckDB ran out of memory while ${OOM_STEP}`;

const key = (f: LandedFile) => streamKey(f.meta.project_id, f.meta.pipeline);

export class Merger {
  readonly stats: MergerStats = { batches: 0, pages: 0, rows: 0, ms: 0 };
  private readonly queue = new Map<string, LandedFile[]>();
  private readonly failed = new Map<string, string>();
  private readonly oom = new Map<string, string>();
  /** The smaller pool batches merge under first (null: the connection's limit). */
  private readonly pool: string | null;
  private loop: Promise<void> | null = null;

  constructor(private readonly deps: MergerDeps) {
    this.pool = deps.memoryLimit === undefined ? null : stepMemoryLimit(deps.memoryLimit);
  }

  /** A page landed: it will be merged after the pages of its stream landed before it. */
  enqueue(file: LandedFile): void {
    const k = key(file);
    this.queue.set(k, [...(this.queue.get(k) ?? []), file]);
    this.kick();
  }

  private kick(): void {
    if (this.loop) return;
    this.loop = this.run().finally(() => {
      this.loop = null;
      // A page that landed while the last batch committed is picked up here.
      if ([...this.queue].some(([k, files]) => !this.failed.has(k) && this.ready(files) > 0)) this.kick();
    });
  }

  /** Whether a stream's pages failed to merge (its fetching should stop: nothing would load). */
  isFailed(pipeline: string, projectId: string): boolean {
    return this.failed.has(streamKey(projectId, pipeline));
  }

  /** The one line a stream stopped with when DuckDB ran out of memory merging it (else null). */
  outOfMemory(pipeline: string, projectId: string): string | null {
    return this.oom.get(streamKey(projectId, pipeline)) ?? null;
  }

  /** Waits until every landed page that can be is merged; throws when some stream's pages could not be. */
  async drain(): Promise<void> {
    while (this.loop) await this.loop;
    if (this.failed.size) {
      throw new FatalError(`landed pages could not be merged (they stay landed for the next run): ${[...this.failed.values()].join('; ')}`);
    }
  }

  private async run(): Promise<void> {
    for (let batch = this.take(); batch.length; batch = this.take()) {
      try {
        await this.merge(batch);
      } catch (err) {
        // Isolate the stream at fault: merge each stream alone; the one that still fails stops.
        for (const files of groupBy(batch, key).values()) {
          try {
            await this.merge(files);
          } catch (e) {
            // Then unit by unit (a page, or a window of an atomic pipeline), each page DuckDB
            // refuses repaired (merge-rescue.ts): a bad value never blocks its stream.
            // A repair that throws (a full disk while it writes its probe) leaves the pages landed
            // and fails the stream, like a page it cannot repair: never the whole sync.
            const left = await this.rescue(files).catch((r: unknown) => `could not repair its pages: ${messageOf(r)}`);
            if (left) {
              const k = key(files[0]!);
              if (left.startsWith(OOM_PREFIX)) this.oom.set(k, left);
              this.failed.set(k, `${files[0]!.meta.project_id}/${files[0]!.meta.pipeline}: ${left}`);
              this.deps.logger.error({ projectId: files[0]!.meta.project_id, pipeline: files[0]!.meta.pipeline, err: left, first: messageOf(err), batch: messageOf(e) }, 'merge failed');
            }
          }
        }
      }
    }
  }

  /**
   * Merges a stream's pages unit by unit, in order, repairing the pages of a unit DuckDB refuses.
   * Returns null when all merged, else the reason the first unit that still fails gives (it and
   * the units after it stay landed for the next run).
   */
  private async rescue(files: readonly LandedFile[]): Promise<string | null> {
    const p = this.pipeline(files[0]!.meta.pipeline);
    const units: LandedFile[][] = [];
    for (const f of files) {
      const last = units.at(-1);
      if (last && p.load.atomicWindows === true && last[0]!.meta.window.id === f.meta.window.id) last.push(f);
      else units.push([f]);
    }
    for (const unit of units) {
      try {
        await this.merge(unit);
        continue;
      } catch (err) {
        // Out of memory is not the records' fault: no record is probed (each probe would run out
        // too), only records over the fetch-time cap that an older version landed are refused.
        const oom = isOutOfMemory(err);
        let repaired = false;
        for (let i = 0; i < unit.length; i++) {
          const fixed = await repairPage({ writer: this.deps.writer, logger: this.deps.logger, now: () => this.deps.clock.now() }, p, unit[i]!, { failed: unit.length === 1, oversizeOnly: oom });
          if (fixed) {
            unit[i] = fixed;
            repaired = true;
          }
        }
        if (!repaired) return oom ? outOfMemoryLine(OOM_STEP, err, this.deps.memoryLimit) : messageOf(err);
      }
      try {
        await this.merge(unit);
      } catch (err) {
        return isOutOfMemory(err) ? outOfMemoryLine(OOM_STEP, err, this.deps.memoryLimit) : messageOf(err);
      }
    }
    return null;
  }

  private async merge(files: readonly LandedFile[]): Promise<void> {
    const started = performance.now();
    this.deps.logger.debug({ pages: files.length, records: files.reduce((n, f) => n + f.meta.records, 0), first: `${files[0]!.meta.project_id}#${files[0]!.meta.seq}` }, 'merging landed pages');
    const groups: MergeGroup[] = [...groupBy(files, (f) => f.meta.pipeline)].map(([name, fs]) => ({ pipeline: this.pipeline(name), files: fs }));
    const merged = await this.deps.writer.run((conn) =>
      withMemoryLimit(conn, this.pool, () => mergeBatch(conn, groups, { now: this.deps.clock.now(), rereads: this.deps.rereads })));
    this.deps.zone.release(files, this.deps.keepRaw);
    this.stats.batches++;
    this.stats.pages += files.length;
    this.stats.rows += merged.rows;
    this.stats.ms += performance.now() - started;
    this.deps.onMerged?.(merged, files);
  }

  /** The next batch: a prefix of each stream's queue, oldest streams first, within the bounds. */
  private take(): LandedFile[] {
    const maxRows = this.deps.maxBatchRows ?? DEFAULT_MERGE_BATCH_ROWS;
    const maxPages = this.deps.maxBatchPages ?? 200;
    const out: LandedFile[] = [];
    let rows = 0;
    for (const [k, files] of this.queue) {
      if (this.failed.has(k)) continue;
      // A stream whose SQL replaces a window's rows merges whole windows only, each in one batch.
      const ready = this.ready(files);
      const atomic = this.pipeline(files[0]!.meta.pipeline).load.atomicWindows === true;
      let taken = 0;
      while (taken < ready && (atomic || (out.length < maxPages && (out.length === 0 || rows + files[0]!.meta.records <= maxRows)))) {
        // A large page merges alone (DuckDB's JSON buffer is sized to a batch's largest page).
        if (!atomic && out.length && (large(out[0]!) || large(files[0]!))) break;
        const f = files.shift()!;
        out.push(f);
        rows += f.meta.records;
        taken++;
      }
      if (!files.length) this.queue.delete(k);
      if (out.length >= maxPages || rows >= maxRows || (out.length && large(out[0]!))) break;
    }
    return out;
  }

  /** Pages of a stream's queue that may be merged now: all, or for atomic windows those up to the last complete one. */
  private ready(files: readonly LandedFile[]): number {
    if (!files.length) return 0;
    if (this.pipeline(files[0]!.meta.pipeline).load.atomicWindows !== true) return files.length;
    for (let i = files.length - 1; i >= 0; i--) if (files[i]!.meta.next.complete) return i + 1;
    return 0;
  }

  /**
   * Pages an earlier run landed but did not merge (a crash): those the stream's checkpoint says are
   * merged (by sequence) are released, the rest merged now, so the state is current before planning.
   * Null when all merged; else why some stream's pages could not be (they stay landed).
   */
  async recover(): Promise<string | null> {
    const { zone, writer } = this.deps;
    zone.removeTemp();
    for (const s of zone.streams()) {
      const state = await writer.run((c) => readSyncState(c, s.projectId, s.pipeline));
      const files = zone.list(s);
      zone.release(files.filter((f) => f.meta.seq <= state.mergedSeq), false);
      for (const f of files) if (f.meta.seq > state.mergedSeq) this.enqueue(f);
    }
    return this.drain().then(() => null, (err: unknown) => messageOf(err));
  }

  /**
   * Where a stream's next read starts, given its stored checkpoint: a window whose pages landed but
   * wait for the rest of it (window-atomic pipelines) continues from its last landed page; one that
   * cannot continue (split paging) has its pages dropped and is read again from the checkpoint.
   */
  resume(pipeline: PipelineDefinition, projectId: string, state: StreamState): StreamState {
    const k = streamKey(projectId, pipeline.name);
    const waiting = this.queue.get(k) ?? [];
    if (!waiting.length) return state;
    if (pipeline.paging.style === 'split') {
      this.deps.zone.release(waiting, false);
      this.queue.delete(k);
      return state;
    }
    const last = waiting.at(-1)!.meta;
    return {
      ...state,
      open: {
        id: last.window.id, from: new Date(last.window.from), to: new Date(last.window.to), purpose: last.window.purpose,
        cursor: last.next.cursor, offset: last.next.offset, pages: waiting.filter((f) => f.meta.window.id === last.window.id).length,
        rows: 0, newRows: 0, changedRows: 0, runId: last.run_id,
      },
    };
  }

  private pipeline(name: string): PipelineDefinition {
    const p = this.deps.pipelines.find((x) => x.name === name);
    if (!p) throw new FatalError(`landed pages of an unknown pipeline "${name}"`);
    return p;
  }
}

function groupBy<T>(items: readonly T[], by: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of items) m.set(by(t), [...(m.get(by(t)) ?? []), t]);
  return m;
}
