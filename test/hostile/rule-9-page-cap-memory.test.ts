// Rule 9, the page cap follows the memory limit (issue 23, D): a page the merge could not load at
// --memory-limit would land and then fail its merge on every run (each of its records merges
// alone: nothing to quarantine). So the page cap is the smaller of DOCS_ETL_MAX_PAGE_BYTES and
// what the merge loads at the limit (12 MiB at 64MB): a page under it loads whole through real
// DuckDB at that limit; one over it is refused at fetch in one line, nothing landed, the other
// pipelines load. Real CLI, hostile server on 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySizeBytes as sizeBytes } from '../../src/core/memory-size.js';
import { mergeBufferBytes, pageCapFor } from '../../src/sync/load/mergeable-page.js';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { expectBoundedMemory, expectOneCleanLine, filesUnder, hostileServer, json, oneWindow, page, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_page_cap_mem_key';
const tmp = tempDir('docs-etl-hostile-9m-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

/** 60 valid turns, `big` of them with a 2 MB response (each under the 4 MiB record cap). */
function bigPage(big: number): string {
  const t = turns(60, 'm_').map((x, i) => (i < big ? { ...x, response: randomBytes(1_500_000).toString('base64') } : x));
  return JSON.stringify(page(t, null));
}

describe('rule 9: the page cap stays within what the merge loads at the memory limit', () => {
  it('the rule: the largest power-of-two buffer within half the limit, three quarters of it for the body', () => {
    expect(sizeBytes('128MB')).toBe(128e6);
    expect(sizeBytes('1GiB')).toBe(2 ** 30);
    expect(sizeBytes('lots')).toBeNull();
    expect(mergeBufferBytes('128MB')).toBe(32 * 2 ** 20);
    expect(mergeBufferBytes('64MB')).toBe(16 * 2 ** 20);
    expect(pageCapFor(64 * 2 ** 20, '128MB')).toMatchObject({ bytes: 24 * 2 ** 20 });
    expect(pageCapFor(64 * 2 ** 20, '64MB')).toMatchObject({ bytes: 12 * 2 ** 20 });
    expect(pageCapFor(64 * 2 ** 20, '1GB')).toEqual({ bytes: 64 * 2 ** 20, name: 'DOCS_ETL_MAX_PAGE_BYTES' });
    expect(pageCapFor(8000, '128MB')).toEqual({ bytes: 8000, name: 'DOCS_ETL_MAX_PAGE_BYTES' });
  });

  it('at --memory-limit 64MB: a 10 MB page loads whole; a 14 MB page is refused at fetch, one line, nothing landed; feedback loads', async () => {
    const small = bigPage(5);
    const large = bigPage(7);
    expect(small.length).toBeLessThan(12 * 2 ** 20);
    expect(large.length).toBeGreaterThan(12 * 2 ** 20);
    const feedback = { feedback: [{ id: 'fb_1', path: '/a', comment: null, createdAt: new Date(Date.now() - 600_000).toISOString(), source: 'thumbs_only', status: 'pending' }], nextCursor: null, hasMore: false };
    let body = small;
    const s = await hostileServer((req, res) => (new URL(req.url!, 'http://x').pathname.endsWith('/assistant')
      ? res.writeHead(200, { 'content-type': 'application/json' }).end(body)
      : json(res, 200, feedback)));
    servers.push(s);
    const env = { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: 'assistant_conversations,feedback' };

    const dirA = join(tmp.dir, 'small');
    const ok = await runMeasured(['sync', '--warehouse', join(dirA, 'w.duckdb'), '--memory-limit', '64MB', ...oneWindow()], env, join(dirA, 'peak'));
    expect(ok.code, ok.stderr).toBe(0);
    expect((await query(join(dirA, 'w.duckdb'), 'SELECT count(*)::INTEGER AS n, max(length(response))::INTEGER AS longest FROM conversations'))[0]).toEqual({ n: 60, longest: 2_000_000 });
    expectBoundedMemory(ok);

    body = large;
    const dirB = join(tmp.dir, 'large');
    const r = await runMeasured(['sync', '--warehouse', join(dirB, 'w.duckdb'), '--memory-limit', '64MB', ...oneWindow()], env, join(dirB, 'peak'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: demo: the response body is larger than the 12 MiB cap \(what the merge loads at --memory-limit 64MB; raise --memory-limit for larger pages\) \(.*\); not retried$/);
    expect(filesUnder(join(dirB, 'landing')).filter((f) => f.endsWith('.json'))).toEqual([]);
    expect((await query(join(dirB, 'w.duckdb'), 'SELECT count(*)::INTEGER AS n FROM conversations'))[0]!.n).toBe(0);
    expect((await query(join(dirB, 'w.duckdb'), 'SELECT count(*)::INTEGER AS n FROM feedback'))[0]!.n).toBe(1);
    expectBoundedMemory(r);
  }, 120_000);

  it('at the default --memory-limit 128MB: a 22 MB page, more than the merge pool (64 MiB) takes, loads whole at the whole limit', async () => {
    const body = bigPage(11);
    expect(body.length).toBeGreaterThan(20e6);
    expect(body.length).toBeLessThan(24 * 2 ** 20);
    const s = await hostileServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    servers.push(s);
    const dir = join(tmp.dir, 'default');
    const r = await runMeasured(['sync', '--warehouse', join(dir, 'w.duckdb'), ...oneWindow()],
      { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: 'assistant_conversations' }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect((await query(join(dir, 'w.duckdb'), 'SELECT count(*)::INTEGER AS n, max(length(response))::INTEGER AS longest FROM conversations'))[0]).toEqual({ n: 60, longest: 2_000_000 });
    expect((await query(join(dir, 'w.duckdb'), 'SELECT count(*)::INTEGER AS n FROM quarantine'))[0]!.n).toBe(0);
    expectBoundedMemory(r);
  }, 120_000);
});
