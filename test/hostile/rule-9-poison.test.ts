// Rule 9: one value the warehouse cannot hold never blocks a stream. At fetch time the contract
// refuses what DuckDB cannot store (numbers beyond BIGINT) and replaces lone UTF-16 surrogates with
// U+FFFD; pages landed by an older docs-etl with such values (stuck: every run failed on them) are
// repaired on upgrade: the records DuckDB refuses go to quarantine with DuckDB's reason, the rest
// of the page loads, the next run exits 0. Real CLI, hostile server on 127.0.0.1.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from '../reliability/reliability-helpers.js';
import { cliEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { landOld } from './land-old.js';
import { expectBoundedMemory, expectKeyAbsent, filesUnder, hostileServer, json, oneWindow, page, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_poison_key_99';
const tmp = tempDir('docs-etl-hostile-9-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

const env = (url: string, extra: Record<string, string> = {}) => ({ DOCS_API_BASE_URL: url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', ...extra });
const count = async (warehouse: string, table: string) => (await query(warehouse, `SELECT count(*)::INTEGER AS n FROM ${table}`))[0]!.n;

/** 40 search terms of one day, the `bad`-th with these values. */
function searchesBody(bad: Record<string, unknown>): string {
  const terms = Array.from({ length: 40 }, (_, i) => ({
    searchQuery: `term ${i}`, hits: 100 - i, ctr: 0.5, topClickedPage: null, lastSearchedAt: '2026-01-01T10:00:00Z', ...(i === 7 ? bad : {}),
  }));
  return JSON.stringify({ searches: terms, totalSearches: 5000, nextCursor: null });
}

describe('rule 9: a value the warehouse cannot hold never blocks a stream', () => {
  it('fetch: a lone surrogate is replaced with U+FFFD and all 60 turns load; exit 0, twice', async () => {
    const t = turns(60, 't_');
    const body = JSON.stringify(page(t, null)).replace('"question 7"', '"question \\ud83d cut"').replace('"question 9"', '"\\udc00 alone"');
    const s = await hostileServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    servers.push(s);
    const dir = join(tmp.dir, 'surrogate');
    const warehouse = join(dir, 'w.duckdb');
    for (const run of [1, 2]) {
      const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], env(s.url), join(dir, `peak${run}`));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/lone UTF-16 surrogates: replaced by U\+FFFD/);
      expectBoundedMemory(r);
      expectKeyAbsent(KEY, r, [dir]);
    }
    expect(await count(warehouse, 'conversations')).toBe(60);
    expect(await count(warehouse, 'quarantine')).toBe(0);
    const q = await query(warehouse, "SELECT query FROM conversations WHERE id IN ('t_0007', 't_0009') ORDER BY id");
    expect(q.map((x) => x.query)).toEqual(['question \ufffd cut', '\ufffd alone']);
  });

  it('fetch: bytes that are not UTF-8 become U+FFFD and all 60 turns load; exit 0', async () => {
    const t = turns(60, 't_');
    // A server that cut a multi-byte character (0xE2 0x82 of "€") and sent a stray 0xFF.
    const [before, after] = JSON.stringify(page(t, null)).replace('"question 7"', '"question SPLIT cut"').split('SPLIT') as [string, string];
    const body = Buffer.concat([Buffer.from(before), Buffer.from([0xe2, 0x82]), Buffer.from(' then '), Buffer.from([0xff]), Buffer.from(after)]);
    const s = await hostileServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    servers.push(s);
    const dir = join(tmp.dir, 'not-utf8');
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], env(s.url), join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect(await count(warehouse, 'conversations')).toBe(60);
    expect(await count(warehouse, 'quarantine')).toBe(0);
    const q = await query(warehouse, "SELECT query FROM conversations WHERE id = 't_0007'");
    expect(q[0]!.query).toBe('question \ufffd then \ufffd cut');
  });

  it('fetch: a count of 1e20 is quarantined with the reason; the day\'s other terms load; exit 0', async () => {
    const s = await hostileServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(searchesBody({ hits: 1e20 })));
    servers.push(s);
    const dir = join(tmp.dir, 'number');
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--from', new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)],
      env(s.url, { DOCS_PIPELINES: 'searches' }), join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    const days = s.seen.length;
    expect(days).toBeGreaterThan(0);
    expect(await count(warehouse, 'searches_daily')).toBe(39 * days);
    const q = await query(warehouse, "SELECT DISTINCT json_extract_string(raw, '$.searchQuery') AS term, error FROM quarantine");
    expect(q).toEqual([{ term: 'term 7', error: expect.stringMatching(/^hits: number 100000000000000000000 is outside the range the warehouse stores/) as unknown }]);
  });

  it('upgrade: pages an older version landed (lone surrogate, 1e20, an impossible date) are repaired; the rest loads; exit 0', async () => {
    const empty = await hostileServer((req, res) => json(res, 200, req.url?.includes('/searches')
      ? { searches: [], totalSearches: 0, nextCursor: null } : page([], null)));
    servers.push(empty);
    const dir = join(tmp.dir, 'upgrade');
    const warehouse = join(dir, 'w.duckdb');
    // Assistant: a lone surrogate (DuckDB refuses the whole file) and a date that does not exist.
    const t = turns(60, 'u_');
    landOld(KEY, dir, 'assistant_conversations', 1, JSON.stringify(page([...t.slice(0, 59), { ...t[59], timestamp: '2026-02-30T10:00:00Z' }], null))
      .replace('"question 3"', '"question \\ud800"'), 60);
    // Searches: hits 1e20 (DuckDB's CAST to BIGINT fails the whole day).
    landOld(KEY, dir, 'searches', 1, searchesBody({ hits: 1e20 }), 40);
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--keep-raw', '30d', ...oneWindow()], env(empty.url, { DOCS_PIPELINES: 'assistant_conversations,searches' }), join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect(await count(warehouse, 'conversations')).toBe(59);
    expect((await query(warehouse, "SELECT query FROM conversations WHERE id = 'u_0003'"))[0]!.query).toBe('question \ufffd');
    expect(await count(warehouse, 'searches_daily')).toBe(39);
    const q = await query(warehouse, "SELECT pipeline, coalesce(json_extract_string(raw, '$.searchQuery'), json_extract_string(raw, '$.id')) AS rec, error FROM quarantine ORDER BY pipeline");
    expect(q).toHaveLength(2);
    expect(q[0]).toMatchObject({ pipeline: 'assistant_conversations', rec: 'u_0059' });
    expect(q[0]!.error).toMatch(/not a date-time DuckDB can store/);
    expect(q[1]).toMatchObject({ pipeline: 'searches', rec: 'term 7' });
    expect(q[1]!.error).toMatch(/^DuckDB cannot store it: .*(BIGINT|out of range|numerical)/i);
    // The repaired pages are kept as repaired: a rebuild replays them to the same rows and quarantine
    // (in this process: the replay is the command's; the syncs around it are real processes).
    const rebuilt = await runMain(['rebuild', '--warehouse', warehouse, '--project', 'demo'], cliEnv({ DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' }));
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(await count(warehouse, 'conversations')).toBe(59);
    expect(await count(warehouse, 'searches_daily')).toBe(39);
    expect(await count(warehouse, 'quarantine')).toBe(2);
    // Nothing stays landed; the next run exits 0 too.
    expect(filesUnder(join(dir, 'landing')).filter((f) => f.endsWith('.json'))).toEqual([]);
    const again = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], env(empty.url, { DOCS_PIPELINES: 'assistant_conversations,searches' }), join(dir, 'peak2'));
    expect(again.code, again.stderr).toBe(0);
    expectKeyAbsent(KEY, r, [dir]);
  });

  it('a thread over the page cap quarantines that key; the other thread loads; exit 0, and it is not asked again', async () => {
    const t = turns(2, 'th_', { resolutionStatus: 'unanswered' });
    const thread = (id: string) => ({ threadId: id, createdAt: '2026-01-01T00:00:00Z', messages: [{ id: `${id}_m1`, role: 'user', content: 'hi', createdAt: '2026-01-01T00:00:00Z' }] });
    const s = await hostileServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      if (path.endsWith('/threads/th_0000')) return json(res, 200, { ...thread('th_0000'), padding: 'p'.repeat(20_000) });
      if (path.endsWith('/threads/th_0001')) return json(res, 200, thread('th_0001'));
      return json(res, 200, page(t, null));
    });
    servers.push(s);
    const dir = join(tmp.dir, 'thread-cap');
    const warehouse = join(dir, 'w.duckdb');
    const e = env(s.url, { DOCS_PIPELINES: 'assistant_conversations,assistant_threads', DOCS_ETL_MAX_PAGE_BYTES: '8000' });
    // The first run stores the turns; the keys (conversations with an unanswered turn) are read by the next.
    expect((await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], e, join(dir, 'peak0'))).code).toBe(0);
    const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], e, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect((await query(warehouse, 'SELECT DISTINCT thread_id FROM thread_messages')).map((x) => x.thread_id)).toEqual(['th_0001']);
    const q = await query(warehouse, "SELECT json_extract_string(raw, '$.key') AS k, error FROM quarantine WHERE pipeline = 'assistant_threads'");
    expect(q).toEqual([{ k: 'th_0000', error: expect.stringMatching(/8000|cap|DOCS_ETL_MAX_PAGE_BYTES/) as unknown }]);
    const asked = s.seen.filter((x) => x.path.includes('/threads/')).length;
    const again = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], e, join(dir, 'peak2'));
    expect(again.code, again.stderr).toBe(0);
    expect(s.seen.filter((x) => x.path.includes('/threads/')).length).toBe(asked);
  }, 120_000);
});
