// Issue 19, item 2 in the report: rendered in headless Chromium, the report states per source how
// many days of the period are loaded ("N of M days loaded"), and the headline makes no comparison
// with a period before that was never loaded.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { CHROMIUM, launchBrowser, openReport } from '../report/report-fixture.js';

const KEY = 'mint_trust_report_cov_key';
let tmp: ReturnType<typeof tempDir>;
let browser: { context: BrowserContext; close: () => Promise<void> } | undefined;
let warehouse: string;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing`);
  tmp = tempDir('docs-etl-report-cov-');
  warehouse = join(tmp.dir, 'w.duckdb');
  const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 1500, seed: 31 }));
  try {
    // A budget that reads the assistant's whole history but only a few days of page views (and
    // the first run's probe of where the assistant's history starts: 9 requests at most).
    const r = await runSync({ clock: { now: () => new Date(), sleep: async () => {} }, logger: silentLogger }, defaultSyncConfig(warehouse,
      [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null }],
      { rate: { limit: 14 + 9, windowMs: 3_600_000 }, maxWaitMs: 0, budgetDir: join(tmp.dir, 'budget'), pipelines: ['assistant_conversations', 'page_views'] }), PIPELINES);
    if (r.exitCode !== 0) throw new Error(`sync failed: ${JSON.stringify(r.runs.map((x) => x.error))}`);
  } finally {
    await sb.close();
  }
  browser = await launchBrowser();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  tmp?.cleanup();
});

it('states per source how many days of the period are loaded, and compares with no period that was never loaded', async () => {
  const report = join(tmp.dir, 'report.html');
  const r = await runCli(['report', '--out', report, '--warehouse', warehouse, '--since', '30d'], cliEnv({}));
  expect(r.code, r.stderr).toBe(0);
  const wh = await openWarehouse(warehouse, { readOnly: true });
  let viewDays: number;
  try {
    // Complete UTC days with views rows in the period (today left out).
    viewDays = Number((await wh.conn.runAndReadAll(
      "SELECT count(DISTINCT day) FROM page_views_daily WHERE day BETWEEN current_date - 29 AND current_date - 1")).getRows()[0]![0]);
  } finally {
    wh.close();
  }
  expect(viewDays).toBeGreaterThan(0);
  expect(viewDays).toBeLessThan(29);
  const { page, problems } = await openReport(browser!.context, report);
  const items = await page.locator('#coverage li').evaluateAll((els) => els.map((e) => ({
    source: e.getAttribute('data-source'), text: (e as HTMLElement).innerText,
  })));
  expect(items).toEqual([
    { source: 'assistant_conversations', text: 'assistant turns: 29 of 29 days loaded' },
    { source: 'page_views', text: `page views: ${viewDays} of 29 days loaded (sums and rankings of this source cover only these days)` },
  ]);
  // The sandbox's history is 30 days: the 30 days before the period were never loaded.
  const vs = await page.locator('#headline [data-no-comparison]').allInnerTexts();
  expect(vs).toHaveLength(4);
  for (const t of vs) expect(t).toMatch(/^no comparison: the period before \(\S+ → \S+\) has \d+ of 30 days of assistant turns loaded$/);
  // Nor does the table per category (the previous period's partial day would make a change up).
  const previous = await page.locator('[data-table="categories"] tbody tr').evaluateAll((rows) => rows.map((r) => {
    const cells = [...r.querySelectorAll('td')].map((c) => (c as HTMLElement).innerText.trim());
    return cells.slice(-2);
  }));
  expect(previous.length).toBeGreaterThan(0);
  for (const cells of previous) expect(cells).toEqual(['not loaded', 'not loaded']);
  expect(problems).toEqual([]);
});
