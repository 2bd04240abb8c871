// The report's "Gap topics" section in real headless Chromium: a warehouse synced from the sandbox
// over real HTTP (the sync computes the topics), a hostile question added and the topics rebuilt
// by the real CLI, the report written by the real CLI and opened from disk. The section shows the
// biggest topics of the period, named by their medoid, with their turns of the period; hostile text
// stays text; its table sorts; nothing is requested but the file.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { CHROMIUM, HOSTILE, KEY, addHostileTurns, distinctColours, launchBrowser, openReport, syncedWarehouse } from './report-fixture.js';

let tmp: ReturnType<typeof tempDir>;
let browser: { context: BrowserContext; close: () => Promise<void> };
let warehouse: string;
let report: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  tmp = tempDir('docs-etl-report-topics-');
  warehouse = await syncedWarehouse(tmp.dir);
  await addHostileTurns(warehouse);
  const env = cliEnv({ DOCS_API_KEY: KEY });
  const rebuilt = await runCli(['topics', '--rebuild', '--warehouse', warehouse, '--limit', '1'], env);
  if (rebuilt.code !== 0) throw new Error(`topics --rebuild failed (${rebuilt.code}): ${rebuilt.stderr}`);
  report = join(tmp.dir, 'report.html');
  const r = await runCli(['report', '--out', report, '--warehouse', warehouse], env);
  if (r.code !== 0) throw new Error(`report failed (${r.code}): ${r.stderr}`);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  tmp?.cleanup();
});

/** Per topic of gap_topics, its unanswered turns and conversations of the report's UTC days (apart from the report's SQL). */
async function topicsInPeriod(from: string, to: string): Promise<Map<string, Record<string, unknown>>> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const rows = (await wh.conn.runAndReadAll(`
      SELECT t.topic_id, t.language, coalesce(t.medoid, t.label) AS title, count(*) AS turns, count(DISTINCT m.conversation_id) AS conversations
      FROM gap_topics t JOIN gap_topic_members m USING (project_id, topic_id)
      WHERE CAST(timezone('UTC', m.occurred_at) AS DATE) BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
      GROUP BY ALL`, { from, to })).getRowObjectsJS() as Record<string, unknown>[];
    return new Map(rows.map((r) => [String(r.title), r]));
  } finally {
    wh.close();
  }
}

describe('report: Gap topics in headless Chromium', () => {
  it('shows the biggest topics of the period, named by their medoid, with their turns and conversations of its days; hostile text as text', async () => {
    const { page, url, problems, requests } = await openReport(browser.context, report);
    try {
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      const from = (await page.getAttribute('[data-period-from]', 'data-period-from'))!;
      const to = (await page.getAttribute('[data-period-to]', 'data-period-to'))!;
      const db = await topicsInPeriod(from, to);
      const rows = await page.$$eval('table[data-table="gap-topics"] tbody tr', (trs) => trs.map((tr) => {
        const cells = Array.from((tr as HTMLTableRowElement).cells);
        return { label: cells[0]!.querySelector('.topic-label')?.textContent ?? null, cells: cells.map((c) => c.textContent) };
      }));
      expect(rows.length).toBeGreaterThan(5);
      // Named by the medoid; counted over the report's days.
      for (const r of rows) {
        const t = db.get(r.label!)!;
        expect(t, r.label!).toBeDefined();
        expect(r.cells[1]).toBe(t.language);
        expect(r.cells[2]).toBe(Number(t.turns).toLocaleString('en-US'));
        expect(r.cells[4]).toBe(Number(t.conversations).toLocaleString('en-US'));
      }
      expect(rows.map((r) => Number(r.cells[2]!.replace(/,/g, '')))).toEqual([...db.values()].map((t) => Number(t.turns)).sort((a, b) => b - a).slice(0, rows.length));
      // The hostile question (40 turns, one text) is a topic of its own, shown as text; nothing ran.
      expect(rows.map((r) => r.label)).toContain(HOSTILE.question);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      const shot = await page.locator('#gap-topics').screenshot();
      expect(await distinctColours(browser.context, shot)).toBeGreaterThan(5);
    } finally {
      await page.close();
    }
  });

  it('sorts the topics by a clicked column', async () => {
    const { page } = await openReport(browser.context, report);
    try {
      const table = page.locator('table[data-table="gap-topics"]');
      await table.locator('th', { hasText: 'Last 7 days' }).locator('button').click();
      const keys = await table.locator('tbody tr td:nth-child(6)').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-sort'))));
      const sorted = [...keys].sort((a, b) => a - b);
      expect(keys.join(',') === sorted.join(',') || keys.join(',') === [...sorted].reverse().join(',')).toBe(true);
      expect(new Set(keys).size).toBeGreaterThan(1);
    } finally {
      await page.close();
    }
  });
});
