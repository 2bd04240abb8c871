// One size of `npm run bench`: a full sync of N turns from an in-process sandbox (no rate limit) into
// a fresh warehouse, end to end through the real client, validation, landing zone and merger, with
// the sync in its own process (its peak memory is its own); then three steady-state runs (nothing
// new: the head, and the publish of the read snapshot; the median is reported), all with the
// launcher's memory settings (as the installed `docs-etl sync` runs); the same full sync as the
// container runs it when the Dockerfile adds settings of its own, and, with --bare-node, with
// Node's defaults (`node bin/docs-etl.js`), each into a fresh warehouse; DuckDB's own ingest of the
// same pages (the ceiling); the views and the report on the result.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readSurfaceDir } from '../../src/sync/publish/surface-files.js';
import { defaultSandboxOptions, startSandbox } from '../../src/tools/sandbox/index.js';
import { capturePages } from './capture-pages.js';
import { startChildSync, type ChildSync } from './child-sync.js';
import { containerNode, launcherNode, type NodeSetup } from './container-node.js';
import { duckdbCeiling, type Ceiling } from './duckdb-ceiling.js';
import { lakeBench, type LakeBench } from './lake-bench.js';
import { measuredSync, type MeasuredSync, type MeasuredSyncInput } from './measured-sync.js';
import { timeReport } from './report-timing.js';
import { viewTimings, type ViewTiming } from './view-timings.js';

const SYNC_KEY = 'mint_bench_sync_key';
const CAPTURE_KEY = 'mint_bench_capture_key';
const PROJECT = 'demo';
/** Steady runs measured per size; the median is reported. */
const STEADY_RUNS = 3;

export interface LoadResult {
  n: number;
  sync: ChildSync;
  /** The median of the steady runs (by run time), and all of them in order. */
  steady: ChildSync;
  steadyRuns: ChildSync[];
  /** The same full sync, into a fresh warehouse, with the container image's Node flags and glibc setting (null: in-process bench). */
  container: ChildSync | null;
  /** The same full sync with Node's default flags (null: not asked for, --bare-node, or in-process). */
  bare: ChildSync | null;
  /** How `sync` and `steady` ran Node: the launcher's settings. */
  node: string;
  requests: number;
  /** ceil(N / 1000): one request per 1,000 turns, as if read in one window. */
  idealRequests: number;
  /** Per window the run read: max(1, ceil(turns in it / 1000)), summed: no page read twice. */
  idealWindowed: number;
  ceiling: Ceiling;
  /** The views through the read path (the catalog by default) and on the warehouse's native tables. */
  views: ViewTiming[];
  nativeViews: ViewTiming[];
  report: { ms: number; bytes: number };
  warehouseMb: number;
  snapshotMb: number;
  /** The read surface's Parquet files (catalog mode), MB and count. */
  partsMb: number;
  partsFiles: number;
  /** The lake: a full export after the full sync, an incremental one after a run with a little new data (lake-bench.ts). */
  lake: LakeBench;
}

export interface LoadOptions {
  /** Run the syncs in the bench process (no flags, no separate memory). */
  inProcess?: boolean;
  /** Also run the full sync with Node's default flags. */
  bareNode?: boolean;
}

export async function loadBench(n: number, seed: number, workDir: string, log: (m: string) => void, opts: LoadOptions = {}): Promise<LoadResult> {
  const inProcess = opts.inProcess ?? false;
  const launcher = launcherNode();
  log(`${n.toLocaleString('en-US')} turns: generating the sandbox's history`);
  const sandbox = await startSandbox(defaultSandboxOptions({ apiKeys: [SYNC_KEY, CAPTURE_KEY], conversations: n, seed, rateLimit: null }));
  try {
    sandbox.malformed(PROJECT);
    const dir = join(workDir, String(n));
    const warehouse = join(dir, 'warehouse.duckdb');
    // The planner's defaults (7-day windows at most, ~50 pages a window once the density is known),
    // with the backfill bounded by the sandbox's history (30 days).
    const input: MeasuredSyncInput = {
      baseUrl: sandbox.url, projectId: PROJECT, warehouse, budgetDir: join(dir, 'budget'),
      rateLimit: '1000000/1h', maxWait: '1m', logLevel: 'warn', from: new Date(Date.now() - 31 * 86_400_000).toISOString(),
    };
    const run = (): Promise<ChildSync> => (inProcess ? inProcessSync(input) : startChildSync(input, SYNC_KEY, launcher).result);
    log(`${n.toLocaleString('en-US')} turns: full sync (${inProcess ? 'in the bench process' : `child process as the launcher runs it: ${describeNode(launcher)}`})`);
    const sync = await run();
    if (sync.exitCode !== 0 || sync.runs[0]?.upserted !== n) {
      throw new Error(`the sync did not load ${n} turns: exit ${sync.exitCode}, ${JSON.stringify(sync.runs.map(({ windows: _w, ...r }) => r))}`);
    }
    const requests = sandbox.requestLog(SYNC_KEY).filter((r) => r.path.startsWith('/v1/analytics/')).length;
    const keys = sandbox.truthKeys(PROJECT);
    const idealWindowed = sync.runs[0]!.windows.reduce((sum, w) => {
      const [from, to] = [Date.parse(w.from), Date.parse(w.to)];
      let k = 0;
      for (let i = 0; i < keys.count; i++) if (keys.timestampMs[i]! >= from && keys.timestampMs[i]! < to) k++;
      return sum + Math.max(1, Math.ceil(k / 1000));
    }, 0);
    // A steady run lasts about half a second: one sample is at the mercy of the machine (0.5 to
    // 0.8 s seen at 4M turns), so three in a row and the median.
    log(`${n.toLocaleString('en-US')} turns: steady-state runs (nothing new), ${STEADY_RUNS} of them`);
    const steadyRuns: ChildSync[] = [];
    for (let i = 0; i < STEADY_RUNS; i++) steadyRuns.push(await run());
    const steady = [...steadyRuns].sort((a, b) => a.syncMs - b.syncMs)[Math.floor(STEADY_RUNS / 2)]!;
    const fresh = async (what: string, node: NodeSetup): Promise<ChildSync> => {
      log(`${n.toLocaleString('en-US')} turns: full sync ${what} (${describeNode(node)})`);
      const own = join(dir, what.replace(/\W+/g, '-'));
      const r = await startChildSync({ ...input, warehouse: join(own, 'warehouse.duckdb'), budgetDir: join(own, 'budget') }, SYNC_KEY, node).result;
      if (r.exitCode !== 0 || r.runs[0]?.upserted !== n) throw new Error(`the full sync ${what} did not load ${n} turns: exit ${r.exitCode}`);
      return r;
    };
    // The container's entrypoint is the launcher: its sync is the one above unless the Dockerfile adds settings.
    const image = containerNode();
    const same = JSON.stringify([image.flags, image.env]) === JSON.stringify([launcher.flags, launcher.env]);
    const container = inProcess || same ? null : await fresh('as the container runs it', image);
    const bare = inProcess || !opts.bareNode ? null : await fresh("with Node's defaults", { flags: [], env: {} });
    log(`${n.toLocaleString('en-US')} turns: saving the raw pages, then DuckDB's read_json of them`);
    const pages = await capturePages(sandbox.url, CAPTURE_KEY, PROJECT, join(dir, 'pages'));
    if (pages.rows !== n) throw new Error(`captured ${pages.rows} turns, expected ${n}`);
    const ceiling = await duckdbCeiling(pages.dir, dir);
    log(`${n.toLocaleString('en-US')} turns: views and report`);
    const snapshot = join(dir, 'read', 'warehouse.duckdb');
    const size = (p: string) => { try { return statSync(p).size; } catch { return 0; } };
    const result = {
      n, sync, steady, steadyRuns, container, bare, node: inProcess ? 'in the bench process' : describeNode(launcher), requests, idealRequests: Math.ceil(n / 1000), idealWindowed, ceiling,
      views: await viewTimings(snapshot), nativeViews: await viewTimings(warehouse), report: await timeReport(snapshot),
      warehouseMb: (size(warehouse) + size(`${warehouse}.wal`)) / 1e6, snapshotMb: size(snapshot) / 1e6,
      ...partsOf(readSurfaceDir(snapshot), size),
    };
    // Last: its sync adds data, after every figure above was taken.
    log(`${n.toLocaleString('en-US')} turns: lake export, full, then incremental after a run with a little new data`);
    const lake = await lakeBench({ sandboxUrl: sandbox.url, warehouse, readPath: snapshot, lakeDir: join(dir, 'lake'), sync: run });
    return { ...result, lake };
  } finally {
    await sandbox.close();
  }
}

const describeNode = (n: NodeSetup): string =>
  `${Object.entries(n.env).map(([k, v]) => `${k}=${v} `).join('')}node ${n.flags.join(' ') || 'with no flags'}`;

function partsOf(dir: string, size: (p: string) => number): { partsMb: number; partsFiles: number } {
  const files = existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')) : [];
  return { partsMb: files.reduce((n, f) => n + size(join(dir, f)), 0) / 1e6, partsFiles: files.length };
}

async function inProcessSync(input: MeasuredSyncInput): Promise<ChildSync> {
  const started = performance.now();
  const m: MeasuredSync = await measuredSync(input, SYNC_KEY);
  return { ...m, wallMs: performance.now() - started, sampledPeakRssKb: m.peakRssKb ?? 0 };
}
