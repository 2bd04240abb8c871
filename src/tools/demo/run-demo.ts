// `npm run demo`: the main job on embedded defaults, no key and no network. Starts the sandbox
// in-process on a free port, syncs it into state/demo/warehouse.duckdb, runs a second incremental
// sync and prints the views a docs team looks at first. It touches only its own files (demo-files.ts).
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock, type Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { keyFingerprint } from '../../core/secrets.js';
import { defaultSyncConfig } from '../../config/sync-config.js';
import type { ProjectRunSummary } from '../../sync/run/summary.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { openReader } from '../../sync/publish/open-reader.js';
import { writeReport } from '../../outputs/report/write-report.js';
import { runSync } from '../../sync/run/sync.js';
import { DEMO_API_KEY, DEMO_PROJECT_ID, defaultSandboxOptions, startSandbox } from '../sandbox/index.js';
import { demoFiles, prepareDemoFiles } from './demo-files.js';

export interface DemoOptions {
  warehouse: string;
  conversations: number;
  /** Delete the warehouse even if the demo did not create it. */
  force?: boolean;
  out: NodeJS.WritableStream;
  logger: Logger;
  clock?: Clock;
  signal?: AbortSignal;
  /** How the CLI prints a project's run and a table (the demo prints what the commands would). */
  format: { runLine(run: ProjectRunSummary): string; table(rows: Record<string, unknown>[]): string };
}

export async function runDemo(opts: DemoOptions): Promise<number> {
  const clock = opts.clock ?? systemClock;
  const say = (s = '') => opts.out.write(`${s}\n`);
  // The sandbox's history is relative to its start, so a demo always begins from a fresh warehouse
  // and a fresh budget; only files an earlier demo created are deleted (or any, with --force).
  const files = demoFiles(opts.warehouse);
  const removed = prepareDemoFiles(files, { force: opts.force === true, now: clock.now() });
  if (removed.length) opts.logger.info({ removed }, 'removed the previous demo files');
  const sandbox = await startSandbox(defaultSandboxOptions({ conversations: opts.conversations, live: true, liveTurnsPerMinute: 600, clock }));
  try {
    say(`sandbox listening on ${sandbox.url} (project "${DEMO_PROJECT_ID}", ${opts.conversations.toLocaleString('en-US')} turns of history)`);
    const cfg = defaultSyncConfig(files.warehouse, [{ projectId: DEMO_PROJECT_ID, apiKey: DEMO_API_KEY, keySource: 'the sandbox demo key',
      baseUrl: sandbox.url, organization: keyFingerprint(DEMO_API_KEY), backfillFrom: null }],
    { maxWaitMs: 60_000, budgetDir: files.budgetDir, landingDir: files.landingDir, readPath: files.readPath });
    let code = 0;
    for (const label of ['first sync (full history)', 'second sync (incremental: the head and what is due)']) {
      const t = clock.now().getTime();
      const r = await runSync({ clock, logger: opts.logger, signal: opts.signal }, cfg, PIPELINES);
      say(`\n${label}, ${clock.now().getTime() - t} ms`);
      for (const run of r.runs) say(`  ${opts.format.runLine(run)}`);
      code = r.exitCode;
      if (code !== 0) return code;
      await clock.sleep(1500, opts.signal);
    }
    const wh = await openReader({ warehouse: cfg.warehouse, readPath: cfg.readPath });
    try {
      const q = async (file: string) =>
        (await wh.conn.runAndReadAll(sqlFile(file), { project_id: DEMO_PROJECT_ID })).getRowObjectsJS() as Record<string, unknown>[];
      say('\nunanswered rate, last 7 days in UTC (view daily_unanswered_rate)');
      say(opts.format.table(await q('demo/daily.sql')));
      say('\nby category (view category_breakdown)');
      say(opts.format.table(await q('demo/categories.sql')));
      say('\ntop unanswered questions: the documentation gaps (view top_unanswered_questions)');
      say(opts.format.table(await q('demo/top-unanswered.sql')));
      say('\npages to improve: unanswered turns, thumbs down and traffic per page (view page_gaps)');
      say(opts.format.table(await q('demo/page-gaps.sql')));
      say(pageGapsCaveat((await q('demo/page-gaps-coverage.sql'))[0]));
      // The demo's snapshot sits beside its warehouse (demo-files.ts), not where `query` looks by
      // default (read/ beside the warehouse): the command names it, so it runs as printed.
      say(`\nwarehouse: ${opts.warehouse} (read snapshot for readers: ${wh.path})\n` +
        `query it: DOCS_ETL_READ_PATH=${shellWord(wh.path)} npx docs-etl query --warehouse ${shellWord(opts.warehouse)} "SELECT * FROM category_breakdown"`);
      const report = await writeReport(wh.conn, files.report, { sinceMs: 30 * 86_400_000, now: clock.now(), generator: 'docs-etl demo' });
      say(`report (last 30 days, open it in a browser): ${report.path}`);
    } finally {
      wh.close();
    }
    return code;
  } finally {
    await sandbox.close();
  }
}

/** A path as one shell word: as is when plain, else single-quoted. */
function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/** The coverage the page list rests on: sums over the days each source is loaded, not a full period. */
function pageGapsCaveat(c: Record<string, unknown> | undefined): string {
  const d = (k: string) => Number(c?.[k] ?? 0);
  return `coverage: of ${d('period_days')} day(s), turns are loaded on ${d('turns')}, thumbs on ${d('thumbs')}, views on ${d('views')}, ` +
    `visitors on ${d('visitors')}: each column counts only its own source's loaded days, so compare pages within a column, ` +
    'not across columns; a page in no export is not listed (page_gaps in docs/tables.md)';
}
