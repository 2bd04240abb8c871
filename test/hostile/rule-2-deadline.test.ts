// Rule 2: every request has a total deadline (connect, headers, body), which a stop request also
// bounds. A body trickling one byte every 20 s ends at --request-timeout; the run stops at its
// checkpoint with one line; what was read before is loaded. Real CLI, hostile server on 127.0.0.1.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';
import {
  expectBoundedMemory, expectKeyAbsent, expectOneCleanLine, hostileServer, json, page, plainLines, runMeasured, turns, type Hostile, oneWindow,
} from './hostile.js';

const KEY = 'mint_hostile_deadline_key_2718';
const tmp = tempDir('docs-etl-hostile-2-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

/** Headers at once, then one byte every 20 s: never a complete body. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const t = setInterval(() => res.write(' '), 20_000);
  res.on('close', () => clearInterval(t));
}

/** Page 1 (50 valid turns, more to come), then a page that trickles. */
async function trickleOnPage2(): Promise<Hostile> {
  const s = await hostileServer((_req: IncomingMessage, res, n) => (n === 0 ? json(res, 200, page(turns(50, 'conv_'), 'c1')) : trickle(res)));
  servers.push(s);
  return s;
}

const syncEnv = (s: Hostile) => ({ DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' });
const turnsIn = async (warehouse: string) => Number((await query(warehouse, 'SELECT count(*) AS n FROM conversations'))[0]!.n);

describe('rule 2: every request has a total deadline', () => {
  it('sync: a trickling page ends at --request-timeout with one line, not retried; the pages before it are loaded', async () => {
    const s = await trickleOnPage2();
    const dir = join(tmp.dir, 'trickle');
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--request-timeout', '2s', ...oneWindow()], syncEnv(s), join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: demo: no complete response within the request deadline of 2s \(connect, headers and body\)$/);
    expect(s.seen).toHaveLength(2); // not retried
    // Ended by the 2 s deadline, not by the trickle (a byte every 20 s keeps a body without one
    // going for ever): the rest is the run's close (publish, checkpoint), seconds on a loaded CI.
    expect(r.endedAt - s.seen[1]!.at).toBeLessThan(15_000);
    expectBoundedMemory(r);
    expect(await turnsIn(warehouse)).toBe(50);
    const runs = await query(warehouse, 'SELECT status, error FROM sync_runs');
    expect(runs).toEqual([{ status: 'failed', error: 'no complete response within the request deadline of 2s (connect, headers and body)' }]);
    expectKeyAbsent(KEY, r, [dir]);
  });

  it('sync: SIGTERM while a page trickles stops the run at its checkpoint (exit 0) by the deadline; a second signal exits at once', async () => {
    const s = await trickleOnPage2();
    const dir = join(tmp.dir, 'sigterm');
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--request-timeout', '2s', ...oneWindow()], syncEnv(s), join(dir, 'peak'), async (pid) => {
      await waitFor(() => s.seen.length === 2, 20_000);
      process.kill(pid, 'SIGTERM');
    });
    expect(r.code, r.stderr).toBe(0);
    expect(plainLines(r.stderr)).toEqual(['docs-etl: SIGTERM received, stopping at the next checkpoint (send again to exit now)']);
    expect(r.stdout).toMatch(/demo\/assistant_conversations: stopped .* 1 pages, \d+ requests, 50 rows merged, 0 quarantined \| stopped: the request in flight did not finish within its deadline of 2s\n/);
    // The request ends by its deadline; then the stopped run publishes what it merged (issue 33):
    // one publish of a tiny warehouse, allowed 5 s on a loaded machine.
    expect(r.endedAt - s.seen[1]!.at).toBeLessThanOrEqual(2 * 2_000 + 5_000);
    expect(r.stdout).toMatch(/read snapshot published: /);
    expect(await turnsIn(warehouse)).toBe(50);
    expect((await query(warehouse, 'SELECT status FROM sync_runs'))[0]!.status).toBe('stopped');

    const s2 = await trickleOnPage2();
    const dir2 = join(tmp.dir, 'sigterm-twice');
    let secondAt = 0;
    const r2 = await runMeasured(['sync', '--warehouse', join(dir2, 'w.duckdb'), '--request-timeout', '60s', ...oneWindow()], syncEnv(s2), join(dir2, 'peak'), async (pid, stderr) => {
      await waitFor(() => s2.seen.length === 2, 20_000);
      process.kill(pid, 'SIGTERM');
      await waitFor(() => stderr().includes('SIGTERM received'), 10_000);
      secondAt = Date.now();
      process.kill(pid, 'SIGTERM');
    });
    expect(r2.code).toBe(130);
    // At once: without it the run would wait out the request's 60 s deadline (10 s: a loaded CI).
    expect(r2.endedAt - secondAt).toBeLessThan(10_000);
    expect(plainLines(r2.stderr).at(-1)).toBe('docs-etl: second SIGTERM, exiting now');
  });

  it('static-export: a job status that trickles ends at --request-timeout with one line naming the job to resume', async () => {
    const job = { jobId: 'se_0123456789abcdef', status: 'queued', progress: 0, pageCount: 0, createdAt: '2026-11-01T09:00:00Z', updatedAt: '2026-11-01T09:00:00Z' };
    const s = await hostileServer((req, res) => (req.method === 'POST' ? json(res, 202, job) : trickle(res)));
    servers.push(s);
    const dir = join(tmp.dir, 'se-trickle');
    const r = await runMeasured(['static-export', '--domain', 'docs.example.com', '--out', join(dir, 'out'), '--warehouse', join(dir, 'w.duckdb'),
      '--poll-interval', '10ms', '--request-timeout', '1s'], { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: GET \/v1\/static-export\/jobs\/se_0123456789abcdef: no complete response within the request deadline of 1s .*; resume with: docs-etl static-export --job se_0123456789abcdef$/);
    // By the 1 s deadline, not the trickle's next byte (20 s); the margin is for a loaded CI.
    expect(r.endedAt - s.seen[1]!.at).toBeLessThan(10_000);
    expect(s.seen.filter((x) => x.method === 'GET')).toHaveLength(1);
    expectBoundedMemory(r);
    expectKeyAbsent(KEY, r, [dir]);
  });
});
