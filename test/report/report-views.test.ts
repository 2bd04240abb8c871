// The per-day views the report reads: summed over days they equal the all-time views users already
// query (same rules, one more key), and their day is the UTC day whatever the session's time zone.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { tempDir } from '../helpers/tmp.js';
import { addHostileTurns, syncedWarehouse } from './report-fixture.js';

let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
beforeAll(async () => {
  tmp = tempDir('docs-etl-report-views-');
  warehouse = await syncedWarehouse(tmp.dir);
  await addHostileTurns(warehouse);
}, 300_000); // the first file of a run builds the shared fixture; the others wait for it
afterAll(() => tmp.cleanup());

async function count(sql: string): Promise<number> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return Number((await wh.conn.runAndReadAll(sql)).getRows()[0]![0]);
  } finally {
    wh.close();
  }
}

/** Rows in one query and not in the other, both ways; and how many rows the first has. */
async function difference(a: string, b: string): Promise<{ rows: number; differ: number }> {
  return {
    rows: await count(`SELECT count(*) FROM (${a})`),
    differ: await count(`SELECT count(*) FROM ((${a}) EXCEPT ALL (${b}))`) + await count(`SELECT count(*) FROM ((${b}) EXCEPT ALL (${a}))`),
  };
}

describe('daily views', () => {
  it.each([
    ['daily_category_breakdown', 'category_breakdown',
      'SELECT project_id, category, sum(turns) t, sum(unanswered) u FROM daily_category_breakdown GROUP BY ALL',
      'SELECT project_id, category, turns t, unanswered u FROM category_breakdown'],
    ['daily_unanswered_questions', 'top_unanswered_questions',
      'SELECT project_id, question, sum(times_asked) n, max(last_asked_at) l FROM daily_unanswered_questions GROUP BY ALL',
      'SELECT project_id, question, times_asked n, last_asked_at l FROM top_unanswered_questions'],
    ['daily_unanswered_by_page', 'unanswered_by_page',
      'SELECT project_id, page_path, sum(turns) t, sum(unanswered) u FROM daily_unanswered_by_page GROUP BY ALL',
      'SELECT project_id, page_path, turns t, unanswered u FROM unanswered_by_page'],
    ['daily_cited_sources', 'most_cited_sources',
      'SELECT project_id, url, sum(citations) c, sum(citations_in_unanswered) cu, max(last_cited_at) l FROM daily_cited_sources GROUP BY ALL',
      'SELECT project_id, url, citations c, citations_in_unanswered cu, last_cited_at l FROM most_cited_sources'],
    ['daily_category_breakdown', 'daily_unanswered_rate',
      'SELECT project_id, day, sum(turns) t, sum(unanswered) u FROM daily_category_breakdown GROUP BY ALL',
      'SELECT project_id, day, turns t, unanswered u FROM daily_unanswered_rate'],
  ])('%s summed over its extra keys equals %s', async (_daily, _allTime, a, b) => {
    const d = await difference(a, b);
    expect(d.rows).toBeGreaterThan(5);
    expect(d.differ).toBe(0);
  });

  it('count clarifying questions like the table does', async () => {
    expect(await count('SELECT sum(clarifying_questions) FROM daily_category_breakdown'))
      .toBe(await count("SELECT count(*) FROM conversations WHERE response_type = 'clarifying_question'"));
    expect(await count('SELECT sum(clarifying_questions) FROM daily_category_breakdown')).toBeGreaterThan(0);
  });

  it('put a turn on its UTC day whatever the session time zone', async () => {
    const wh = await openWarehouse(join(tmp.dir, 'zones.duckdb'));
    try {
      // 23:30 UTC is already the next day in Kiritimati (UTC+14) and still the same day in Honolulu (UTC-10).
      await wh.conn.run(`INSERT INTO conversations VALUES ('p', 'c1', TIMESTAMPTZ '2026-11-01 23:30:00+00', 'Why?', 'r', 'answer', 'unanswered',
        NULL, 'https://d.io/a', '/a', NULL, now(), now(), now(), NULL)`);
      await wh.conn.run(`INSERT INTO sources VALUES ('p', 'c1', TIMESTAMPTZ '2026-11-01 23:30:00+00', 1, 't', 'https://d.io/a')`);
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Honolulu', 'UTC']) {
        await wh.conn.run(`SET TimeZone = '${zone}'`);
        const days = (await wh.conn.runAndReadAll(`
          SELECT (SELECT CAST(day AS VARCHAR) FROM daily_category_breakdown), (SELECT CAST(day AS VARCHAR) FROM daily_unanswered_questions),
                 (SELECT CAST(day AS VARCHAR) FROM daily_unanswered_by_page), (SELECT CAST(day AS VARCHAR) FROM daily_cited_sources)`)).getRows()[0];
        expect(days, zone).toEqual(['2026-11-01', '2026-11-01', '2026-11-01', '2026-11-01']);
      }
    } finally {
      wh.close();
    }
  });
});
