// `npm run demo`: the main job on embedded defaults, no key and no network. Starts the sandbox
// in-process on a free port, syncs it into state/demo.duckdb, runs a second incremental sync and
// prints the views a docs team looks at first.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PIPELINES } from '../../pipelines/index.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { keyFingerprint } from '../core/secrets.js';
import { formatRunLine, formatTable } from '../cli/format.js';
import { sqlFile } from '../load/sql-files.js';
import { openWarehouse } from '../load/warehouse.js';
import { writeReport } from '../report/write-report.js';
import { runSync } from '../run/sync.js';
import { DEMO_API_KEY, DEMO_PROJECT_ID, defaultSandboxOptions, startSandbox } from '../sandbox/index.js';

export interface DemoOptions {
  warehouse: string;
  conversations: number;
  out: NodeJS.WritableStream;
  logger: Logger;
  clock?: Clock;
  signal?: AbortSignal;
}

export async function runDemo(opts: DemoOptions): Promise<number> {
  const clock = opts.clock ?? systemClock;
  const say = (s = '') => opts.out.write(`${s}\n`);
  // The sandbox's history is relative to its start, so a demo always begins from a fresh warehouse.
  for (const f of [opts.warehouse, `${opts.warehouse}.wal`, join(dirname(opts.warehouse), 'budget')]) rmSync(f, { recursive: true, force: true });
  const sandbox = await startSandbox(defaultSandboxOptions({ conversations: opts.conversations, live: true, liveTurnsPerMinute: 600, clock }));
  try {
    say(`sandbox listening on ${sandbox.url} (project "${DEMO_PROJECT_ID}", ${opts.conversations.toLocaleString('en-US')} turns of history)`);
    const cfg = {
      warehouse: opts.warehouse, lookbackMs: 24 * 3_600_000, rate: { limit: 100, windowMs: 3_600_000 }, maxWaitMs: 60_000,
      budgetDir: join(dirname(opts.warehouse), 'budget'),
      projects: [{ projectId: DEMO_PROJECT_ID, apiKey: DEMO_API_KEY, keySource: 'the sandbox demo key', baseUrl: sandbox.url,
        organization: keyFingerprint(DEMO_API_KEY), backfillFrom: null }],
    };
    let code = 0;
    for (const label of ['first sync (full history)', 'second sync (incremental: lookback window only)']) {
      const t = Date.now();
      const r = await runSync({ clock, logger: opts.logger, signal: opts.signal }, cfg, PIPELINES);
      say(`\n${label}, ${Date.now() - t} ms`);
      for (const run of r.runs) say(`  ${formatRunLine(run)}`);
      code = r.exitCode;
      if (code !== 0) return code;
      await clock.sleep(1500, opts.signal);
    }
    const wh = await openWarehouse(opts.warehouse, { readOnly: true });
    try {
      const q = async (file: string) =>
        (await wh.conn.runAndReadAll(sqlFile(file), { project_id: DEMO_PROJECT_ID })).getRowObjectsJS() as Record<string, unknown>[];
      say('\nunanswered rate, last 7 days (view daily_unanswered_rate)');
      say(formatTable(await q('demo/daily.sql')));
      say('\nby category (view category_breakdown)');
      say(formatTable(await q('demo/categories.sql')));
      say('\ntop unanswered questions: the documentation gaps (view top_unanswered_questions)');
      say(formatTable(await q('demo/top-unanswered.sql')));
      say(`\nwarehouse: ${wh.path}\nquery it: duckdb ${opts.warehouse} "SELECT * FROM category_breakdown"`);
      const report = await writeReport(wh.conn, join(dirname(opts.warehouse), 'demo-report.html'), { sinceMs: 30 * 86_400_000, now: clock.now(), generator: 'docs-etl demo' });
      say(`report (last 30 days, open it in a browser): ${report.path}`);
    } finally {
      wh.close();
    }
    return code;
  } finally {
    await sandbox.close();
  }
}
