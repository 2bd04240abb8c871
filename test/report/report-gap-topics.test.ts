// The report's "Gap topics" section in real headless Chromium: a warehouse synced from the sandbox
// over real HTTP (the sync computes the topics), a hostile question added and the topics rebuilt
// by the real CLI, the report written by the real CLI and opened from disk. The section shows the
// biggest topics of gap_topics_top with their numbers, trend, examples and pages; hostile text
// stays text; its table sorts; nothing is requested but the file.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { countChange } from '../../src/outputs/report/format.js';
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
  warehouse = join(tmp.dir, 'w.duckdb');
  await syncedWarehouse(warehouse, 3000, 21);
  await addHostileTurns(warehouse);
  const env = cliEnv({ DOCS_API_KEY: KEY });
  const rebuilt = await runCli(['topics', '--rebuild', '--warehouse', warehouse, '--limit', '1'], env);
  if (rebuilt.code !== 0) throw new Error(`topics --rebuild failed (${rebuilt.code}): ${rebuilt.stderr}`);
  report = join(tmp.dir, 'report.html');
  const r = await runCli(['report', '--out', report, '--warehouse', warehouse], env);
  if (r.code !== 0) throw new Error(`report failed (${r.code}): ${r.stderr}`);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  tmp?.cleanup();
});

async function topTopics(): Promise<Record<string, unknown>[]> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return (await wh.conn.runAndReadAll('SELECT * FROM gap_topics_top ORDER BY rank LIMIT 15')).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    wh.close();
  }
}

describe('report: Gap topics in headless Chromium', () => {
  it('shows the biggest topics with the numbers of gap_topics_top, their trend, examples and pages; hostile text as text', async () => {
    const { page, url, problems, requests } = await openReport(browser.context, report);
    try {
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      const db = await topTopics();
      const rows = await page.$$eval('table[data-table="gap-topics"] tbody tr', (trs) => trs.map((tr) => {
        const cells = Array.from((tr as HTMLTableRowElement).cells);
        return {
          label: cells[0]!.querySelector('.topic-label')?.textContent ?? null,
          examples: Array.from(cells[0]!.querySelectorAll('.examples q'), (q) => q.textContent),
          cells: cells.map((c) => c.textContent),
        };
      }));
      expect(rows).toHaveLength(db.length);
      expect(rows.length).toBeGreaterThan(5);
      rows.forEach((r, i) => {
        const t = db[i]!;
        expect(r.label).toBe(t.label);
        expect(r.examples).toEqual((t.examples as string[]).slice(1));
        expect(r.cells[1]).toBe(t.language);
        expect(r.cells[2]).toBe(Number(t.turns).toLocaleString('en-US'));
        expect(r.cells[3]).toBe(Number(t.conversations).toLocaleString('en-US'));
        expect(r.cells[5]).toBe(countChange(Number(t.turns_last_7d), Number(t.turns_prev_7d)));
        expect(r.cells[6]).toBe((t.top_pages as string[]).join(', '));
      });
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
      const keys = await table.locator('tbody tr td:nth-child(5)').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-sort'))));
      const sorted = [...keys].sort((a, b) => a - b);
      expect(keys.join(',') === sorted.join(',') || keys.join(',') === [...sorted].reverse().join(',')).toBe(true);
      expect(new Set(keys).size).toBeGreaterThan(1);
    } finally {
      await page.close();
    }
  });
});
