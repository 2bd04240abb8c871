// Rule 9, page-level fields (issue 23, C): totals in a page's envelope that the warehouse cannot
// store (beyond BIGINT, negative) are refused at fetch, before the page lands: one line naming the
// field, the stream reported failing for this run, never a CAST failure in the merge; the other
// pipelines load, and once the API sends a storable value the next run loads the window (exit 0).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageViews, searches } from '../../pipelines/index.js';
import { pageFieldsProblem } from '../../src/sync/normalize/validate-page-fields.js';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { expectKeyAbsent, expectOneCleanLine, filesUnder, hostileServer, json, page, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_page_fields_key_7';
const tmp = tempDir('docs-etl-hostile-9p-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

const count = async (warehouse: string, table: string) => (await query(warehouse, `SELECT count(*)::INTEGER AS n FROM ${table}`))[0]!.n;

describe('rule 9: page-level fields the warehouse cannot store', () => {
  it('the contract check names the field: beyond BIGINT (nested too), negative, missing; storable totals pass', () => {
    const views = (totals: Record<string, unknown>) => ({ views: [], totals, hasMore: false });
    expect(pageFieldsProblem(pageViews, views({ human: 1, ai: 2, total: 3 }))).toBeNull();
    expect(pageFieldsProblem(pageViews, views({ human: 1, ai: 2, total: 1e20 }))).toBe('totals.total: number 100000000000000000000 is outside the range the warehouse stores (a 64-bit integer)');
    expect(pageFieldsProblem(pageViews, views({ human: -1, ai: 2, total: 3 }))).toMatch(/^totals\.human: /);
    expect(pageFieldsProblem(pageViews, { views: [], hasMore: false })).toMatch(/^totals: /);
    expect(pageFieldsProblem(searches, { searches: [], totalSearches: 2 ** 63, nextCursor: null })).toMatch(/^totalSearches: number 9223372036854776000 is outside/);
    // Records are not page-level fields (they have their own per-record check).
    expect(pageFieldsProblem(searches, { searches: [{ hits: 1e20 }], totalSearches: 5, nextCursor: null })).toBeNull();
  });

  it('totalSearches 1e20: one line for the window, nothing landed or merged, conversations load; fixed by the API: the next run exits 0', async () => {
    let bad = true;
    const terms = Array.from({ length: 5 }, (_, i) => ({ searchQuery: `term ${i}`, hits: 10 - i, ctr: 0.5, topClickedPage: null, lastSearchedAt: '2026-01-01T10:00:00Z' }));
    const s = await hostileServer((req, res) => (new URL(req.url!, 'http://x').pathname.endsWith('/searches')
      ? json(res, 200, { searches: terms, totalSearches: bad ? 1e20 : 50, nextCursor: null })
      : json(res, 200, page(turns(12, 'c_'), null))));
    servers.push(s);
    const dir = join(tmp.dir, 'totals');
    const warehouse = join(dir, 'w.duckdb');
    const from = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const env = { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: 'assistant_conversations,searches' };
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--from', from], env, join(dir, 'peak1'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: demo: the API sent page-level fields the warehouse cannot store in window \S+ → \S+ \(totalSearches: number 100000000000000000000 is outside the range the warehouse stores \(a 64-bit integer\)\): the window was ended, nothing from this page was landed; the next run reads it again$/);
    expect(r.stderr).not.toMatch(/Conversion|CAST|could not be merged/i);
    // One request for the bad day, not a retry storm; nothing of it is landed.
    expect(s.seen.filter((x) => x.path.includes('/searches'))).toHaveLength(1);
    expect(filesUnder(join(dir, 'landing')).filter((f) => f.includes('searches'))).toEqual([]);
    expect(await count(warehouse, 'conversations')).toBe(12);
    expect(await count(warehouse, 'searches_daily')).toBe(0);
    expect(await count(warehouse, 'quarantine')).toBe(0);

    bad = false;
    const again = await runMeasured(['sync', '--warehouse', warehouse, '--from', from], env, join(dir, 'peak2'));
    expect(again.code, again.stderr).toBe(0);
    const days = (await query(warehouse, 'SELECT count(DISTINCT day)::INTEGER AS n FROM searches_daily'))[0]!.n as number;
    expect(days).toBeGreaterThanOrEqual(3);
    expect(await count(warehouse, 'searches_daily')).toBe(5 * days);
    expect((await query(warehouse, 'SELECT DISTINCT total_searches::INTEGER AS t FROM searches_daily_totals'))).toEqual([{ t: 50 }]);
    expectKeyAbsent(KEY, again, [dir]);
  }, 120_000);
});
