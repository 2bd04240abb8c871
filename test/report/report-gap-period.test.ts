// The report's gap topics over the report's period, in real headless Chromium: a warehouse synced
// from the sandbox over real HTTP, its project's days counted in Pacific/Honolulu (UTC−10), three
// invented subjects added through real DuckDB, the topics rebuilt and the reports written by the
// real CLI. The 7-day report counts each topic's unanswered turns of its own 7 local days only
// (a subject asked 20 days ago, or an hour before the period starts in local time, is not listed);
// the 45-day report lists them and says that its period is only partly loaded. The section comes
// first, names a topic by its medoid (not the most asked wording with its typo), and fits 1400 px.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { defaultReadPath, publishSnapshot } from '../../src/sync/publish/snapshot.js';
import { reportPeriod } from '../../src/outputs/report/period.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { CHROMIUM, KEY, PROJECT, launchBrowser, openReport, syncedWarehouse } from './report-fixture.js';
import { queryRows } from '../helpers/compare.js';

const ZONE = 'Pacific/Honolulu';
const DAY = 86_400_000;
/** Invented subjects, each its own topic: [question, turns, hours ago] (or a local day and hour). */
const OLD = 'how do I rotate the zebra signing key';
const EDGE = 'does the walrus sprocket glow in moonlight';
const TYPO = 'how do I confgure the quokka exporter';
const QUOKKA: [string, number][] = [
  [TYPO, 6], ['how do I configure the quokka exporter', 3], ['configure the quokka exporter', 3], ['quokka exporter how do I configure it', 2],
];

let tmp: ReturnType<typeof tempDir>;
let browser: { context: BrowserContext; close: () => Promise<void> };
let warehouse: string;
const reports: Record<'week' | 'long', string> = { week: '', long: '' };
let weekFrom = '';

async function addSubjects(): Promise<void> {
  const wh = await openWarehouse(warehouse);
  try {
    await wh.conn.run(`INSERT OR REPLACE INTO projects VALUES ($p, $zone, now())`, { p: PROJECT, zone: ZONE });
    const add = async (q: string, n: number, at: string, tag: string) => wh.conn.run(`
      INSERT INTO conversations
      SELECT $p, $tag || '-' || i, CAST($at AS TIMESTAMPTZ) - to_minutes(CAST(i AS BIGINT)), $q, 'no idea', 'answer', 'unanswered', 'gap',
             'https://docs.example.com/start', '/start', NULL, now(), now(), now(), NULL
      FROM range(${n}) r(i)`, { p: PROJECT, q, at, tag });
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    await add(OLD, 60, ago(20 * DAY), 'old');
    // An hour before the 7-day period starts in Honolulu: 09:00 UTC of its first day.
    weekFrom = reportPeriod(new Date(), 7 * DAY, ZONE).from;
    await add(EDGE, 50, `${weekFrom}T09:00:00Z`, 'edge');
    for (const [i, [q, n]] of QUOKKA.entries()) await add(q, n, ago(2 * 3_600_000), `quokka${i}`);
    await add(TYPO, 10, ago(20 * DAY), 'quokka-old');
    await publishSnapshot(wh.conn, wh.path, defaultReadPath(wh.path));
  } finally {
    wh.close();
  }
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  tmp = tempDir('docs-etl-report-gap-period-');
  warehouse = await syncedWarehouse(tmp.dir);
  await addSubjects();
  const env = cliEnv({ DOCS_API_KEY: KEY });
  const rebuilt = await runCli(['topics', '--rebuild', '--warehouse', warehouse, '--limit', '1'], env);
  if (rebuilt.code !== 0) throw new Error(`topics --rebuild failed (${rebuilt.code}): ${rebuilt.stderr}`);
  for (const [name, since] of [['week', '7d'], ['long', '45d']] as const) {
    reports[name] = join(tmp.dir, `${name}.html`);
    const r = await runCli(['report', '--out', reports[name], '--warehouse', warehouse, '--since', since], env);
    if (r.code !== 0) throw new Error(`report failed (${r.code}): ${r.stderr}`);
  }
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  tmp?.cleanup();
});

const sql = (query: string, params: Record<string, string> = {}) => queryRows(warehouse, query, params);

/** Per topic, its unanswered turns whose Honolulu day falls in [from, to]: counted apart from the report's SQL. */
async function turnsInPeriod(from: string, to: string): Promise<Map<string, number>> {
  const rows = await sql(`
    SELECT m.topic_id, count(*) AS n FROM gap_topic_members m
    JOIN conversations c ON c.project_id = m.project_id AND c.id = m.conversation_id AND c.occurred_at = m.occurred_at
    WHERE CAST(timezone('${ZONE}', c.occurred_at) AS DATE) BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) GROUP BY ALL`, { from, to });
  return new Map(rows.map((r) => [String(r.topic_id), Number(r.n)]));
}

async function topicOf(question: string): Promise<Record<string, unknown>> {
  const [t] = await sql('SELECT * FROM gap_topics WHERE list_contains(examples, $q) OR label = $q OR medoid = $q', { q: question });
  if (!t) throw new Error(`no topic holds "${question}"`);
  return t;
}

async function shown(which: 'week' | 'long') {
  const { page, problems } = await openReport(browser.context, reports[which]);
  try {
    expect(problems).toEqual([]);
    const from = (await page.getAttribute('[data-period-from]', 'data-period-from'))!;
    const to = (await page.getAttribute('[data-period-to]', 'data-period-to'))!;
    const rows = await page.$$eval('table[data-table="gap-topics"] tbody tr', (trs) => trs.map((tr) => {
      const cells = Array.from((tr as HTMLTableRowElement).cells);
      return { label: cells[0]!.querySelector('.topic-label')!.textContent!, terms: cells[0]!.querySelector('.topic-terms')?.textContent ?? '', turns: Number(cells[2]!.textContent!.replace(/,/g, '')) };
    }));
    const caveats = await page.$$eval('#gap-topics [data-caveat]', (els) => els.map((e) => ({ kind: e.getAttribute('data-caveat'), text: e.textContent })));
    const firstSection = await page.$eval('main > section', (s) => s.id);
    return { from, to, rows, caveats, firstSection };
  } finally {
    await page.close();
  }
}

describe('report: gap topics over the report\'s period (headless Chromium)', () => {
  it('the 7-day report counts only the turns of its 7 local days and leaves out topics with none', async () => {
    const { from, to, rows, firstSection, caveats } = await shown('week');
    expect(from).toBe(weekFrom);
    expect(firstSection).toBe('gap-topics');
    const inPeriod = await turnsInPeriod(from, to);
    const old = await topicOf(OLD);
    const edge = await topicOf(EDGE);
    const quokka = await topicOf(TYPO);
    // The step grouped them (topic period 90 days): 60 and 50 turns, bigger than any sandbox topic.
    expect(Number(old.turns)).toBe(60);
    expect(Number(edge.turns)).toBe(50);
    expect(Number(quokka.turns)).toBe(24);
    const labels = rows.map((r) => r.label);
    expect(labels).not.toContain(String(old.medoid));
    expect(labels).not.toContain(String(edge.medoid));
    expect(rows.length).toBeGreaterThan(3);
    const byId = new Map((await sql('SELECT topic_id, coalesce(medoid, label) AS title FROM gap_topics')).map((r) => [String(r.title), String(r.topic_id)]));
    for (const r of rows) expect(r.turns, r.label).toBe(inPeriod.get(byId.get(r.label)!));
    expect(rows.find((r) => r.label === quokka.medoid)?.turns).toBe(14);
    expect(caveats.map((c) => c.kind)).not.toContain('partial');
  });

  it('the 45-day report lists them with their turns of its days and says its period is partly loaded', async () => {
    const { rows, caveats, firstSection } = await shown('long');
    expect(firstSection).toBe('gap-topics');
    const old = await topicOf(OLD);
    expect(rows.find((r) => r.label === old.medoid)?.turns).toBe(60);
    const quokka = await topicOf(TYPO);
    expect(rows.find((r) => r.label === quokka.medoid)?.turns).toBe(24);
    const partial = caveats.find((c) => c.kind === 'partial');
    expect(partial?.text).toMatch(/Assistant turns: \d+ of 44 complete days of the period loaded; the counts cover only those days\./);
  });

  it('names a topic by its medoid and distinctive terms, not the most asked wording with its typo; report and topics alike', async () => {
    const quokka = await topicOf(TYPO);
    expect(quokka.label).toBe(TYPO); // the most asked wording (16 turns), with its typo
    expect(quokka.medoid).not.toBe(TYPO);
    const { rows } = await shown('week');
    const row = rows.find((r) => r.label === quokka.medoid);
    expect(row).toBeDefined();
    expect(row!.terms).toBe((quokka.distinctive_terms as string[]).join(' · '));
    expect(rows.map((r) => r.label)).not.toContain(TYPO);
    const env = cliEnv({ DOCS_API_KEY: KEY });
    const json = await runCli(['topics', '--warehouse', warehouse, '--format', 'json', '--limit', '50'], env);
    const listed = (JSON.parse(json.stdout) as Record<string, unknown>[]).find((t) => t.topic_id === quokka.topic_id)!;
    const table = await runCli(['topics', '--warehouse', warehouse, '--format', 'table', '--limit', '50'], env);
    expect(table.code).toBe(0);
    const [header, , ...lines] = table.stdout.split('\n');
    expect(header).toMatch(/ langu\S*\s+medoid\s+distin/);
    expect(header).not.toMatch(/\blabel\b/);
    // Rows in rank order (one project): the topic's row names it by its medoid.
    expect(lines[Number(listed.rank) - 1]!.slice(header!.indexOf('medoid'))).toMatch(new RegExp(`^${String(quokka.medoid)}\\s`));
    expect([listed.label, listed.medoid, listed.distinctive_terms]).toEqual([TYPO, quokka.medoid, quokka.distinctive_terms]);
  });

  it('fits a 1400 px window', async () => {
    const { page } = await openReport(browser.context, reports.long);
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      const t = await page.$eval('table[data-table="gap-topics"]', (el) => ({
        right: Math.ceil(el.getBoundingClientRect().right), box: Math.floor((el.parentElement as HTMLElement).getBoundingClientRect().right),
      }));
      expect(t.right).toBeLessThanOrEqual(t.box);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);
    } finally {
      await page.close();
    }
  });
});
