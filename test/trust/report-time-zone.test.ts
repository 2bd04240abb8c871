// Issue 19, items 2 and 3 in the report, rendered in headless Chromium: the period, the daily axis
// and the totals are in the project's time zone (the zone the views count days in), labelled with
// it, with no empty "today" of the UTC day; days whose turns are not loaded show `–`, never 0;
// today is drawn as partial; projects in different zones are never summed on one axis.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { defaultReadPath, publishSnapshot } from '../../src/sync/publish/snapshot.js';
import { dayInZone } from '../../src/outputs/report/period.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { CHROMIUM, launchBrowser, openReport } from '../report/report-fixture.js';
import { queryRows } from '../helpers/compare.js';

const KEY = 'mint_trust_report_tz_key';
// A zone whose day differs from the UTC day right now: UTC+14 from 10:00 UTC on, UTC-11 before.
const ZONE = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
let tmp: ReturnType<typeof tempDir>;
let browser: { context: BrowserContext; close: () => Promise<void> } | undefined;
let warehouse: string;

const sql = (query: string, params: Record<string, string> = {}) => queryRows(warehouse, query, params);

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing`);
  tmp = tempDir('docs-etl-report-tz-');
  warehouse = join(tmp.dir, 'w.duckdb');
  const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 3000, seed: 41 }));
  try {
    // A budget that reads the head and part of the backfill: older days of the period stay missing.
    const r = await runSync({ clock: { now: () => new Date(), sleep: async () => {} }, logger: silentLogger }, defaultSyncConfig(warehouse,
      [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null, timezone: ZONE }],
      { rate: { limit: 5, windowMs: 3_600_000 }, maxWaitMs: 0, budgetDir: join(tmp.dir, 'budget'), pipelines: ['assistant_conversations'] }), PIPELINES);
    if (r.exitCode !== 0 && r.exitCode !== 3) throw new Error(`sync failed: ${JSON.stringify(r.runs.map((x) => x.error))}`);
  } finally {
    await sb.close();
  }
  browser = await launchBrowser();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  tmp?.cleanup();
});

it('period, axis and totals in the project\'s zone, labelled; – for days not loaded; today partial', async () => {
  const report = join(tmp.dir, 'report.html');
  const before = dayInZone(new Date(), ZONE);
  const r = await runCli(['report', '--out', report, '--warehouse', warehouse, '--since', '30d'], cliEnv({}));
  expect(r.code, r.stderr).toBe(0);
  const { page, problems } = await openReport(browser!.context, report);
  const meta = page.locator('header .meta');
  const to = (await meta.getAttribute('data-period-to'))!;
  const from = (await meta.getAttribute('data-period-from'))!;
  // The zone's today, not the UTC day (they differ for this zone now).
  expect([before, dayInZone(new Date(), ZONE)]).toContain(to);
  expect(to).not.toBe(new Date().toISOString().slice(0, 10));
  expect(await meta.innerText()).toContain(`${from} → ${to} (30 days in ${ZONE}, today so far included)`);
  expect(await page.locator('#daily [data-days-label]').innerText()).toContain(`Days are days in ${ZONE}.`);
  expect(r.stdout).toContain(`${from} → ${to} (${ZONE})`);

  // The headline total is the views' total over the zone's days of the period.
  const [views] = await sql(
    "SELECT CAST(coalesce(sum(turns), 0) AS BIGINT) AS n FROM daily_category_breakdown WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)", { from, to });
  const turns = Number(await page.locator('#headline [data-metric="turns"]').getAttribute('data-value'));
  expect(turns).toBe(Number(views!.n));
  expect(turns).toBeGreaterThan(0);

  // The per-day table: one row per day of the period; today partial; `–` exactly on the days
  // coverage_days calls missing (and without turns); loaded days carry numbers.
  const rows = await page.locator('#daily-table tr[data-day]').evaluateAll((els) => els.map((e) => ({
    day: e.getAttribute('data-day')!, state: e.getAttribute('data-state')!, cells: [...e.querySelectorAll('td')].map((td) => td.textContent!.trim()),
  })));
  expect(rows).toHaveLength(30);
  expect(rows[0]!.day).toBe(from);
  expect(rows.at(-1)).toMatchObject({ day: to, state: 'partial' });
  expect(rows.at(-1)!.cells[0]).toBe(`${to} (today so far: partial)`);
  const missing = (await sql(
    "SELECT strftime(day, '%Y-%m-%d') AS day FROM coverage_days WHERE pipeline = 'assistant_conversations' AND state = 'missing' AND day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) - 1 ORDER BY 1",
    { from, to })).map((x) => String(x.day));
  const withTurns = new Set((await sql(
    "SELECT DISTINCT strftime(day, '%Y-%m-%d') AS day FROM daily_category_breakdown WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)", { from, to }))
    .map((x) => String(x.day)));
  const dashed = rows.filter((x) => x.cells[1] === '–').map((x) => x.day);
  expect(dashed.length).toBeGreaterThan(0);
  expect(dashed).toEqual(missing.filter((d) => !withTurns.has(d)));
  for (const x of dashed) expect(rows.find((y) => y.day === x)!.cells).toEqual([`${x} (not loaded)`, '–', '–', '–']);
  for (const x of rows.filter((y) => y.state === 'loaded')) expect(x.cells[1]).toMatch(/^\d[\d,]*$/);
  // The volume chart marks each day not loaded with a '–', not a 0 bar.
  await page.waitForSelector('[data-chart="daily-volume"][data-rendered="true"]');
  const marks = await page.locator('[data-chart="daily-volume"] svg text').evaluateAll((els) => els.filter((e) =>
    [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('') === '–').length);
  expect(marks).toBe(dashed.length);
  expect(problems).toEqual([]);
});

it('projects in different time zones are never summed on one axis: one line naming the zones, exit 2; --project works', async () => {
  // A second project counted in UTC, with one turn.
  const wh = await openWarehouse(warehouse);
  try {
    await wh.conn.run("INSERT INTO projects VALUES ('other', 'UTC', now())");
    await wh.conn.run(`INSERT INTO conversations SELECT 'other', 'other-1', now() - INTERVAL 1 HOUR, 'q', 'a', 'answer', 'answered', NULL,
      NULL, NULL, NULL, now(), now(), now(), NULL`);
    await publishSnapshot(wh.conn, wh.path, defaultReadPath(wh.path));
  } finally {
    wh.close();
  }
  // The first report above is a real process; these two run the CLI's main in-process (in-process-cli.ts).
  const all = await runMain(['report', '--out', join(tmp.dir, 'all.html'), '--warehouse', warehouse], cliEnv({}));
  expect(all.code).toBe(2);
  expect(all.stderr.trim().split('\n')).toEqual([expect.stringContaining(
    `the warehouse's projects count their days in different time zones: ${[`${ZONE} (demo)`, 'UTC (other)'].sort().join(', ')}; a report sums days on one axis: write one per project with --project ID`)]);
  const one = await runMain(['report', '--out', join(tmp.dir, 'other.html'), '--warehouse', warehouse, '--project', 'other'], cliEnv({}));
  expect(one.code, one.stderr).toBe(0);
  expect(one.stdout).toContain('(UTC)');
});
