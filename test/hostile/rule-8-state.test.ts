// Rule 8: local state is robust. A slot left open in the request log by a process whose PID is
// alive again (reused) does not hold the budget forever; something in the way of the log's lock is
// named; temp files of killed downloads are removed at the next run, live ones left alone.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { KEY as SANDBOX_KEY, sandboxWith } from '../static-export/helpers.js';
import { expectKeyAbsent, expectOneCleanLine, hostileServer, json, page, runMeasured, turns, type Hostile, oneWindow } from './hostile.js';

const KEY = 'mint_hostile_state_key_1729';
const tmp = tempDir('docs-etl-hostile-8-');
let api: Hostile;
let sb: Sandbox;
beforeAll(async () => {
  api = await hostileServer((_req, res) => json(res, 200, page(turns(10, 'conv_'), null)));
  sb = await sandboxWith(systemClock, { jobDurationMs: 200, bundleTtlMs: 60_000, pagesPerSite: 12 });
});
afterAll(async () => {
  await api.close();
  await sb.close();
  tmp.cleanup();
});
const env = () => ({ DOCS_API_BASE_URL: api.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' });

describe('rule 8: local state is robust', () => {
  it('an in-flight slot of a live but reused PID, past its request deadline, frees the budget (1 request per hour)', async () => {
    const dir = join(tmp.dir, 'reused-pid');
    mkdirSync(join(dir, 'budget'), { recursive: true });
    // Written by an older version (no instance, no expiry) for a PID that is alive now: this test's.
    const start = Date.now() - 2 * 3_600_000;
    writeFileSync(join(dir, 'budget', `${keyFingerprint(KEY)}.json`),
      JSON.stringify({ entries: [{ id: 'old', start, end: null, pid: process.pid }], blockedUntil: 0 }));
    const seen = api.seen.length;
    const r = await runMeasured(['sync', '--warehouse', join(dir, 'w.duckdb'), '--rate-limit', '1/1h', '--max-wait', '1s', ...oneWindow()], env(), join(dir, 'peak'));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(api.seen.length - seen).toBe(1);
    expect((await query(join(dir, 'w.duckdb'), 'SELECT count(*) AS n FROM conversations'))[0]!.n).toBe(10n);
  });

  it('a stray file at the request log\'s lock path: one line naming it, exit 1, no request', async () => {
    const dir = join(tmp.dir, 'stray-lock');
    mkdirSync(join(dir, 'budget'), { recursive: true });
    const lock = join(dir, 'budget', `${keyFingerprint(KEY)}.json.lock`);
    writeFileSync(lock, 'not a lock');
    const seen = api.seen.length;
    const r = await runMeasured(['sync', '--warehouse', join(dir, 'w.duckdb'), ...oneWindow()], { ...env(), DOCS_ETL_BUDGET_DIR: join(dir, 'budget') }, join(dir, 'peak'));
    expect(r.code).toBe(1);
    expectOneCleanLine(r, new RegExp(`^docs-etl: error: ${lock.replace(/[.]/g, '\\.')} is in the way of the request log's lock .*: remove it$`));
    expect(api.seen.length).toBe(seen);
    expectKeyAbsent(KEY, r, [dir]);
  });

  it('static-export removes .part files of killed downloads (dead owner, or untouched for an hour); a live one stays', async () => {
    const dir = join(tmp.dir, 'parts');
    const jobDir = join(dir, 'out', 'docs.example.com', 'se_killedearlier0001');
    mkdirSync(jobDir, { recursive: true });
    const dead = join(jobDir, '.bundle.tar.gz.999999999-0123456789abcdef.0a0b0c0d0e0f.part'); // above pid_max
    const old = join(jobDir, '.bundle.tar.gz.0a0b0c0d0e0f.part'); // an older version's name
    const live = join(jobDir, `.bundle.tar.gz.${process.pid}-fedcba9876543210.0a0b0c0d0e0f.part`); // this process: alive
    for (const f of [dead, old, live]) writeFileSync(f, 'half a bundle');
    const hourAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(old, hourAgo, hourAgo);
    const r = await runMeasured(['static-export', '--domain', 'docs.example.com', '--out', join(dir, 'out'), '--warehouse', join(dir, 'w.duckdb'),
      '--poll-interval', '20ms', '--timeout', '20s'], { DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: SANDBOX_KEY }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect([existsSync(dead), existsSync(old), existsSync(live)]).toEqual([false, false, true]);
    expect(r.stderr).toMatch(/"msg":"removed temp files of interrupted downloads"/);
  });
});
