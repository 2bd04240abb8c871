// `npm run bench -- --scenario topics-sync [--topic-turns 100k]` (issue 37): the whole hourly
// `docs-etl sync`, not the topic step alone: "every hourly run's peak RSS <= 300 MB with the
// launcher's settings" at 100,000 turns a day whose unanswered questions are nearly all distinct.
// The period's unanswered turns (the topic bench's made-up distinct questions, written straight into
// the warehouse) are clustered once (the day's full re-clustering, in its own child); then each run
// adds an hour of them (4,167: every turn of an hour at 100,000 a day, the worst case) and runs a
// real sync of every default pipeline in a child started with the launcher's memory settings,
// against an in-process sandbox of steady traffic at 100,000 turns a day. So one run merges its
// pages, places the hour's new questions (the incremental step), publishes, as a user's hourly run
// does, and its VmHWM is that run's peak. The first run reads the sandbox's last two hours and makes
// the first (whole) read snapshot; the later ones read what arrived since. Prints a table, then one
// JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/core/clock.js';
import { defaultSandboxOptions, startSandbox, trafficOptions } from '../../src/tools/sandbox/index.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import type { BenchArgs } from './bench-args.js';
import { startChildSync } from './child-sync.js';
import { launcherNode } from './container-node.js';
import { child, HOURLY_TURNS } from './topics-bench.js';

/** topics-child.ts's project (that script cannot be imported: it runs on load). */
const PROJECT = 'bench';
const KEY = 'sk_topics_sync_bench';
const HOUR_MS = 3_600_000;
const RUNS = 3;
const TARGET_MB = 300;

interface RunRow {
  run: number; exitCode: number; wallS: number; peakRssMb: number | null; pages: number;
  /** Where the wall time went (s): the child's start and module loading (wall less runSync), the
   * fetch (its merge overlaps it), the merge, the publish; the topic step is `step.durationS`. */
  startS: number; fetchS: number; mergeS: number; publishS: number;
  /** The topic step's phases over 0.05 s of wall time, the largest first. */
  topicPhases: { phase: string; ms: number; cpuMs: number }[];
  step: { mode: string; status: string; questions: number; durationS: number; stepPeakMb: number } | null;
}

export async function topicsSyncBench(args: BenchArgs): Promise<void> {
  const turns = args.topicTurns[0] ?? 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'docs-etl-topics-sync-bench-'));
  const warehouse = join(dir, 'topics.duckdb');
  const sandbox = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: [PROJECT], seed: args.seed, traffic: trafficOptions(100_000), historyDays: 1, rateLimit: null,
  }));
  try {
    const start = systemClock.now().getTime();
    await child(['gen', dir, String(turns), String(args.seed), String(start), '0', String(args.topicDistinct ?? 0)]);
    await child(['step', dir, String(start)]);
    const rows: RunRow[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const now = systemClock.now().getTime();
      await child(['gen', dir, String(HOURLY_TURNS), String(args.seed + run), String(now), String(HOUR_MS)]);
      const r = await startChildSync({
        baseUrl: sandbox.url, projectId: PROJECT, warehouse, budgetDir: join(dir, 'budget'),
        rateLimit: '1000000/1h', maxWait: '1m', logLevel: 'warn', from: new Date(start - 2 * HOUR_MS).toISOString(), allPipelines: true,
      }, KEY, launcherNode()).result;
      rows.push({
        run, exitCode: r.exitCode, wallS: r.wallMs / 1000, peakRssMb: r.peakRssKb === null ? null : r.peakRssKb / 1024,
        pages: r.runs.reduce((n, x) => n + x.pages, 0), step: await lastStep(warehouse),
        topicPhases: r.topicPhases.filter((p) => p.ms > 50).sort((a, b) => b.ms - a.ms),
        startS: (r.wallMs - r.syncMs) / 1000, fetchS: r.timing.fetchMs / 1000, mergeS: r.timing.mergeMs / 1000, publishS: r.timing.publishMs / 1000,
      });
    }
    print(turns, rows);
  } finally {
    await sandbox.close();
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** The topic step the run's sync ran (gap_topic_runs' newest row). */
async function lastStep(path: string): Promise<RunRow['step']> {
  const wh = await openWarehouse(path, { readOnly: true });
  try {
    const [r] = (await wh.conn.runAndReadAll(`SELECT mode, status, questions, duration_ms, peak_rss_bytes FROM gap_topic_runs
      WHERE project_id = $p ORDER BY computed_at DESC LIMIT 1`, { p: PROJECT })).getRowObjectsJS();
    if (!r) return null;
    return {
      mode: String(r.mode), status: String(r.status), questions: Number(r.questions),
      durationS: Number(r.duration_ms) / 1000, stepPeakMb: Number(r.peak_rss_bytes) / 2 ** 20,
    };
  } finally {
    wh.close();
  }
}

function print(turns: number, rows: RunRow[]): void {
  const f1 = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(1));
  process.stdout.write(`\nhourly sync, ${turns.toLocaleString('en-US')} unanswered turns in the period (distinct questions), every pipeline, sandbox at 100,000 turns a day\n`);
  process.stdout.write('run | exit | pages | wall s | start s | fetch s | merge s | publish s | peak RSS MB | topic step: mode, status, questions, s, its peak MB\n');
  for (const r of rows) {
    const step = r.step ? `${r.step.mode}, ${r.step.status}, ${r.step.questions}, ${f1(r.step.durationS)}, ${f1(r.step.stepPeakMb)}` : '–';
    process.stdout.write(`${r.run} | ${r.exitCode} | ${r.pages} | ${f1(r.wallS)} | ${f1(r.startS)} | ${f1(r.fetchS)} | ${f1(r.mergeS)} | ${f1(r.publishS)} | ${f1(r.peakRssMb)} | ${step}\n`);
  }
  for (const r of rows) {
    process.stdout.write(`run ${r.run}, topic step by phase (wall / CPU s): ${r.topicPhases.map((p) => `${p.phase} ${(p.ms / 1000).toFixed(2)} / ${(p.cpuMs / 1000).toFixed(2)}`).join('; ')}\n`);
  }
  const peak = Math.max(...rows.map((r) => r.peakRssMb ?? Infinity));
  process.stdout.write(`target: every hourly run's peak RSS <= ${TARGET_MB} MB: ${peak <= TARGET_MB ? 'met' : 'NOT met'} (max ${f1(peak)} MB)\n`);
  process.stdout.write(`${JSON.stringify({ scenario: 'topics-sync', turns, runs: rows, maxPeakRssMb: peak, targetMb: TARGET_MB, met: peak <= TARGET_MB })}\n`);
}
