// Rule 11: no endless paging, no 429 hammering. A server that pages forever (hasMore true with
// fresh records and cursors) is stopped at the window's page cap, and
// one that repeats its previous page at once; a 429 storm gets exponentially longer waits and the
// request gives up after a few in a row. Each time: one clear line, the stream reported failing
// (status --check), bounded requests and time, and the other pipelines of the run load.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CONSECUTIVE_429 } from '../../src/sync/api/analytics-client.js';
import { MIN_PAGE_CAP } from '../../src/sync/plan/page-cap.js';
import { query } from '../reliability/reliability-helpers.js';
import { cliEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { expectBoundedMemory, expectKeyAbsent, expectOneCleanLine, hostileServer, json, oneWindow, page, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_paging_key_11';
const tmp = tempDir('docs-etl-hostile-11-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

const PIPELINES = 'assistant_conversations,feedback';
/** Feedback answers one page of 5 entries: the pipeline that must load while the assistant misbehaves. */
function feedback(res: ServerResponse): void {
  const entries = Array.from({ length: 5 }, (_, i) => ({
    id: `fb_${i}`, path: '/docs/a', comment: null, createdAt: new Date(Date.now() - 10 * 60_000).toISOString(), source: 'thumbs_only', status: 'pending',
  }));
  json(res, 200, { feedback: entries, nextCursor: null, hasMore: false });
}
const isAssistant = (req: IncomingMessage) => new URL(req.url!, 'http://x').pathname.endsWith('/assistant');

async function sync(name: string, s: Hostile) {
  const dir = join(tmp.dir, name);
  const warehouse = join(dir, 'w.duckdb');
  const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()],
    { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: PIPELINES }, join(dir, 'peak'));
  return { dir, warehouse, r };
}

/** status --check in this process: the report is the command's (the syncs above are real processes). */
async function expectFailingStream(warehouse: string): Promise<void> {
  const check = await runMain(['status', '--check', '--warehouse', warehouse], cliEnv({ LOG_LEVEL: 'warn' }));
  expect(check.code).toBe(1);
  expect(check.stdout).toMatch(/unhealthy: .*demo\/assistant_conversations/);
  expect(check.stdout).not.toMatch(/demo\/feedback/);
}

describe('rule 11: no endless paging, no 429 hammering', () => {
  it('a server paging forever (fresh cursors and records) is stopped at the page cap: one line, exit 1, the stream failing, feedback loaded', async () => {
    let n = 0;
    const s = await hostileServer((req, res) => (isAssistant(req) ? json(res, 200, page(turns(3, `p${n}_`), `cursor-${n++}`)) : feedback(res)));
    servers.push(s);
    const { dir, warehouse, r } = await sync('forever', s);
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: demo: the API kept paging past \d+ pages in window \S+ → \S+, more than its plan justifies: the window was ended here, no further requests; the window is parked: no read of demo\/assistant_conversations before \S+ \(retry 1\)$/);
    const assistantRequests = s.seen.filter((x) => x.path.includes('/assistant')).length;
    expect(assistantRequests).toBeGreaterThanOrEqual(MIN_PAGE_CAP);
    expect(assistantRequests).toBeLessThanOrEqual(MIN_PAGE_CAP + 20);
    // What it read up to the cap is kept; feedback loaded; the stream is reported failing.
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations'))[0]!.n).toBe(3 * assistantRequests);
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM feedback'))[0]!.n).toBe(5);
    await expectFailingStream(warehouse);
    expectBoundedMemory(r);
    expectKeyAbsent(KEY, r, [dir]);
  });

  it('a server repeating its previous page under a fresh cursor: ended at the second copy, the first loaded', async () => {
    let n = 0;
    const s = await hostileServer((req, res) => (isAssistant(req) ? json(res, 200, page(turns(10, 'same_'), `fresh-${n++}`)) : feedback(res)));
    servers.push(s);
    const { warehouse, r } = await sync('repeat', s);
    expect(r.code, r.stderr).toBe(1);
    expect(s.seen.filter((x) => x.path.includes('/assistant'))).toHaveLength(2);
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations'))[0]!.n).toBe(10);
    await expectFailingStream(warehouse);
    expectOneCleanLine(r, /^docs-etl: error: demo: the API returned the same page twice in window \S+ → \S+ \(a paging loop\): the window was ended, no further requests$/);
  });

  it(`a 429 storm (Retry-After: 1 every time): waits grow, the request gives up after ${MAX_CONSECUTIVE_429} in a row; feedback loaded`, async () => {
    const s = await hostileServer((req, res) => (isAssistant(req) ? json(res, 429, { error: 'Too many requests' }, { 'retry-after': '1' }) : feedback(res)));
    servers.push(s);
    const { warehouse, r } = await sync('storm', s);
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, new RegExp(`^docs-etl: error: demo: the API answered 429 \\(rate limited\\) ${MAX_CONSECUTIVE_429} times in a row: this stream stopped at its checkpoint; the next run continues$`));
    const storm = s.seen.filter((x) => x.path.includes('/assistant'));
    expect(storm).toHaveLength(MAX_CONSECUTIVE_429);
    // Exponential: each wait at least twice the one before (2 s, 4 s, 8 s), whatever Retry-After says.
    const gaps = storm.slice(1).map((x, i) => x.at - storm[i]!.at);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThanOrEqual(1.8 * gaps[i - 1]!);
    expect(gaps[0]!).toBeGreaterThanOrEqual(1_900);
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM feedback'))[0]!.n).toBe(5);
    await expectFailingStream(warehouse);
  }, 60_000);
});
