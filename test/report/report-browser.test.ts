// The report in real headless Chromium: a report of a warehouse synced from the sandbox over real
// HTTP, written by the real CLI, opened from disk. No console error, no request but the file, every
// chart drawn, a screenshot that is not blank, headline numbers equal to the views', hostile text
// shown as text, sortable tables; and the empty states of an empty and of a stale warehouse.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { writeReport } from '../../src/outputs/report/write-report.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { CHROMIUM, HOSTILE, INVENTORY, KEY, addHostileTurns, addInventory, distinctColours, launchBrowser, openReport, syncedWarehouse } from './report-fixture.js';

const DAY = 86_400_000;
let tmp: ReturnType<typeof tempDir>;
let browser: { context: BrowserContext; close: () => Promise<void> };
let warehouse: string;
let report: string;
let generatedBetween: [Date, Date];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  tmp = tempDir('docs-etl-report-');
  warehouse = await syncedWarehouse(tmp.dir);
  await addHostileTurns(warehouse);
  await addInventory(warehouse);
  report = join(tmp.dir, 'out', 'report.html');
  const before = new Date();
  const r = await runCli(['report', '--out', report, '--warehouse', warehouse], cliEnv({ DOCS_API_KEY: KEY }));
  generatedBetween = [before, new Date()];
  if (r.code !== 0) throw new Error(`report failed (${r.code}): ${r.stderr}`);
  expect(r.stdout).toMatch(/^report .*report\.html: demo, \d{4}-\d\d-\d\d → \d{4}-\d\d-\d\d \(UTC\), [\d,]+ turns; [\d.]+ kB in [\d.]+s\n$/);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  tmp?.cleanup();
});

async function viewTotals(from: string, to: string) {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const one = async (sql: string) => Number((await wh.conn.runAndReadAll(sql, { from, to })).getRows()[0]![0] ?? 0);
    const range = 'day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)';
    const turns = await one(`SELECT sum(turns) FROM daily_unanswered_rate WHERE ${range}`);
    const unanswered = await one(`SELECT sum(unanswered) FROM daily_unanswered_rate WHERE ${range}`);
    const clarifying = await one(`SELECT sum(clarifying_questions) FROM daily_category_breakdown WHERE ${range}`);
    const conversations = await one(`SELECT count(*) FROM threads WHERE CAST(timezone('UTC', first_turn_at) AS DATE) BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)`);
    return { turns, conversations, unanswered_rate: unanswered / turns, clarifying_share: clarifying / turns };
  } finally {
    wh.close();
  }
}

describe('report in headless Chromium', () => {
  it('loads from disk with no console error and no request but the file; every chart draws; the screenshot is not blank', async () => {
    const { page, url, problems, requests } = await openReport(browser.context, report);
    try {
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      const charts = await page.$$eval('figure[data-chart]', (figs) => figs.map((f) => ({
        name: f.getAttribute('data-chart'), rendered: f.getAttribute('data-rendered'),
        marks: f.querySelectorAll('svg [aria-label] rect, svg [aria-label] path, svg [aria-label] circle').length,
      })));
      expect(charts.map((c) => c.name)).toEqual(['daily-rate', 'daily-volume', 'category-rate', 'category-volume']);
      for (const c of charts) {
        expect(c.rendered, c.name!).toBe('true');
        expect(c.marks, c.name!).toBeGreaterThan(10);
      }
      const shot = await page.screenshot({ fullPage: true });
      expect(await distinctColours(browser.context, shot)).toBeGreaterThan(50);
      expect(readFileSync(report, 'utf8')).not.toContain(KEY);
    } finally {
      await page.close();
    }
  });

  it('marks today as partial in every chart, and its tables fit a 1400 px window', async () => {
    const { page, problems } = await openReport(browser.context, report);
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.reload();
      await page.waitForSelector('figure[data-chart="category-volume"][data-rendered]');
      expect(problems).toEqual([]);
      // Today's bars are faint (partial) in every bar chart, the heatmap of categories included.
      for (const name of ['daily-volume', 'category-rate', 'category-volume']) {
        const faint = await page.$$eval(`figure[data-chart="${name}"] svg rect[fill-opacity="0.35"]`, (rs) => rs.length);
        expect(faint, name).toBeGreaterThan(0);
      }
      // No table wider than its box, no horizontal scroll of the page.
      const overflow = await page.$$eval('table[data-table]', (ts) => ts.map((t) => ({
        name: t.getAttribute('data-table'), width: Math.ceil(t.getBoundingClientRect().right), box: Math.floor((t.parentElement as HTMLElement).getBoundingClientRect().right),
      })).filter((t) => t.width > t.box));
      expect(overflow).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);
    } finally {
      await page.close();
    }
  });

  it('shows the same headline numbers as the views, for the period and the period before', async () => {
    const { page } = await openReport(browser.context, report);
    try {
      const from = await page.getAttribute('[data-period-from]', 'data-period-from');
      const to = await page.getAttribute('[data-period-to]', 'data-period-to');
      // 30 UTC days ending with the day the report was written.
      expect([generatedBetween[0].toISOString().slice(0, 10), generatedBetween[1].toISOString().slice(0, 10)]).toContain(to);
      expect(Date.parse(to!) - Date.parse(from!)).toBe(29 * DAY);
      const prevTo = new Date(Date.parse(from!) - DAY).toISOString().slice(0, 10);
      const prevFrom = new Date(Date.parse(from!) - 30 * DAY).toISOString().slice(0, 10);
      const now = await viewTotals(from!, to!);
      const before = await viewTotals(prevFrom, prevTo);
      expect(now.turns).toBeGreaterThan(1000);
      const shown = await page.$$eval('[data-metric]', (els) => els.map((e) => ({
        name: e.getAttribute('data-metric')!, value: Number(e.getAttribute('data-value')), previous: e.getAttribute('data-previous'),
        text: e.querySelector('.value')!.textContent,
      })));
      expect(shown.map((s) => s.name)).toEqual(['turns', 'conversations', 'unanswered_rate', 'clarifying_share']);
      for (const s of shown) {
        const expected = now[s.name as keyof typeof now];
        expect(s.value, s.name).toBeCloseTo(expected, 12);
        const text = s.name.endsWith('rate') || s.name.endsWith('share') ? `${(expected * 100).toFixed(1)}%` : expected.toLocaleString('en-US');
        expect(s.text, s.name).toBe(text);
        // The sandbox's history is 30 days: the period before holds only its first hours, if any.
        const prev = before[s.name as keyof typeof before];
        if (Number.isFinite(prev)) expect(Number(s.previous), s.name).toBeCloseTo(prev, 12);
        else expect(s.previous, s.name).toBe('');
      }
    } finally {
      await page.close();
    }
  });

  it('shows hostile questions, categories, pages and sources as text: nothing runs, nothing loads', async () => {
    const { page, problems, requests, url } = await openReport(browser.context, report);
    try {
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      const questions = await page.$$eval('table[data-table="questions"] tbody tr td:first-child .question', (els) => els.map((e) => e.textContent));
      expect(questions).toContain(HOSTILE.question);
      expect(await page.$$eval('table[data-table="categories"] tbody td:first-child', (els) => els.map((e) => e.textContent))).toContain(HOSTILE.category);
      expect(await page.$$eval('table[data-table="pages"] tbody code', (els) => els.map((e) => e.textContent))).toContain(HOSTILE.pagePath);
      // The category also went through the chart data (JSON in the page) into the legend.
      expect(await page.textContent('figure[data-chart="category-volume"]')).toContain(HOSTILE.category);
      const sourceCell = page.locator('table[data-table="sources"] tbody td', { hasText: 'bold</b>' });
      expect(await sourceCell.count()).toBe(1);
      expect(await sourceCell.locator('a').count()).toBe(0); // a javascript: URL is never a link
      expect(await page.locator('main img, main b, main script').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('lists the pages of the static export never cited, and titles starting pages from it', async () => {
    const { page } = await openReport(browser.context, report);
    try {
      const never = await page.$$eval('table[data-table="never-cited"] tbody tr', (trs) => trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (td) => td.textContent)));
      expect(never).toEqual(INVENTORY.neverCited.map((p) => [INVENTORY.domain, p.path, p.title ?? '', '1,234']));
      expect(await page.textContent('#never-cited .intro')).toMatch(/^2 of the 4 pages of the latest static export/);
      const faq = page.locator('table[data-table="pages"] tbody tr', { hasText: '/troubleshooting/faq' });
      expect(await faq.locator('.title').textContent()).toBe(INVENTORY.cited[0]!.title);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
    } finally {
      await page.close();
    }
  });

  it('sorts a table when a header is clicked, and back', async () => {
    const { page, problems } = await openReport(browser.context, report);
    try {
      const table = page.locator('table[data-table="pages"]');
      const column = async (i: number) => table.locator(`tbody tr td:nth-child(${i})`).evaluateAll((tds) => tds.map((td) => ({
        text: td.textContent ?? '', key: td.getAttribute('data-sort'),
      })));
      const keys = async () => (await column(2)).map((c) => Number(c.key));
      const arrived = await keys();
      expect(arrived.length).toBeGreaterThan(5);
      expect(arrived).toEqual([...arrived].sort((a, b) => b - a));
      await table.locator('th', { hasText: 'Unanswered turns' }).locator('button').click();
      expect(await table.locator('th', { hasText: 'Unanswered turns' }).getAttribute('aria-sort')).toBe('ascending');
      const asc = await keys();
      expect(asc).toEqual([...arrived].sort((a, b) => a - b));
      await table.locator('th', { hasText: 'Starting page' }).locator('button').click();
      const paths = (await column(1)).map((c) => c.text);
      expect(paths).toEqual([...paths].sort((a, b) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' })));
      expect(paths).not.toEqual((await column(1)).map(() => '')); // the column has text
      await table.locator('th', { hasText: 'Starting page' }).locator('button').click();
      expect((await column(1)).map((c) => c.text)).toEqual([...paths].reverse());
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('an empty warehouse and a stale one get a clear empty state, no broken charts', async () => {
    const empty = join(tmp.dir, 'empty.duckdb');
    (await openWarehouse(empty)).close();
    const cases = [
      { file: join(tmp.dir, 'empty.html'), warehouse: empty, now: new Date(), state: 'no-data' },
      // The same data seen from 90 days later: nothing in the period, the newest turn named, the head stale.
      { file: join(tmp.dir, 'stale.html'), warehouse, now: new Date(Date.now() + 90 * DAY), state: 'no-recent-data' },
    ];
    for (const c of cases) {
      const wh = await openWarehouse(c.warehouse, { readOnly: true });
      try {
        await writeReport(wh.conn, c.file, { sinceMs: 30 * DAY, now: c.now });
      } finally {
        wh.close();
      }
      const { page, problems, requests, url } = await openReport(browser.context, c.file);
      try {
        expect(problems, c.state).toEqual([]);
        expect(requests, c.state).toEqual([url]);
        expect(await page.getAttribute('[data-empty-state]', 'data-empty-state')).toBe(c.state);
        expect(await page.locator('[data-empty-state]').isVisible()).toBe(true);
        expect(await page.locator('figure[data-chart], svg').count()).toBe(0);
        expect(await page.locator('#freshness').isVisible()).toBe(true);
        if (c.state === 'no-recent-data') {
          expect(await page.textContent('[data-empty-state]')).toMatch(/newest loaded turn is from \d{4}-\d\d-\d\d/);
          expect(await page.locator('aside.stale').textContent()).toMatch(/demo \(assistant[^)]*\): data reaches .* ago/);
        } else {
          expect(await page.textContent('[data-empty-state]')).toMatch(/No conversations in the warehouse yet/);
        }
      } finally {
        await page.close();
      }
    }
  });
});
