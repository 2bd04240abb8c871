// Two projects of one organization, every pipeline, against a sandbox that enforces a small rate
// window: the real CLI (a config file lists both projects, one key) never sends more than the
// limit in any window and never gets a 429; the assistant's head is fresh for both projects; and
// `docs-etl status --json` shows every pipeline's coverage for both projects.
// The sandbox keeps the real clock here (its rate window must move with real time).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxInWindow } from '../helpers/window-stats.js';
import type { StreamStatus, Status } from '../../src/outputs/status/collect-status.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { DAY_MS, PIPELINE_NAMES, SMALL_SITE, query, utcMidnight } from './exports-helpers.js';

const KEY = 'mint_exports_rate_limit_key';
const PROJECTS = ['alpha', 'beta'];
const RATE = { limit: 20, windowMs: 2000 };

let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
let from: number;
let started: number;
let ended: number;
const runs: CliResult[] = [];
let status: Status;

beforeAll(async () => {
  tmp = tempDir('docs-etl-exports-rate-');
  warehouse = join(tmp.dir, 'w.duckdb');
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: PROJECTS, conversations: 300, historyDays: 3, seed: 1341, site: SMALL_SITE, rateLimit: RATE,
  }));
  started = Date.now();
  // Three complete days back: the sandbox's whole history (3 days before its start) is inside.
  from = utcMidnight(started) - 3 * DAY_MS;
  const config = join(tmp.dir, 'docs-etl.json');
  writeFileSync(config, JSON.stringify({ projects: PROJECTS.map((id) => ({ id, apiKeyEnv: 'DOCS_API_KEY' })) }));
  const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PIPELINES: PIPELINE_NAMES.join(','), LOG_LEVEL: 'warn' });
  // Two runs: the second sweeps the undated feedback (planned once history has no gap left).
  for (let i = 0; i < 2; i++) {
    runs.push(await runCli(['sync', '--config', config, '--warehouse', warehouse, '--rate-limit', '20/2s', '--from', new Date(from).toISOString()], env));
  }
  ended = Date.now();
  const s = await runCli(['status', '--json', '--warehouse', warehouse, '--rate-limit', '20/2s'], env);
  expect(s.code, s.stderr).toBe(0);
  status = JSON.parse(s.stdout) as Status;
}, 180_000); // paced by the real 20/2s window: a margin for a loaded machine

afterAll(async () => {
  await sb?.close();
  tmp?.cleanup();
});

describe('two projects, every pipeline, one rate window', () => {
  it('both runs succeed, and every request of both is one the sandbox admitted: no 429, never more than the limit in a window', () => {
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const log = sb.requestLog(KEY);
    expect(log.filter((x) => x.status !== 200)).toEqual([]);
    expect(maxInWindow(log.map((x) => x.at), RATE.windowMs)).toBeLessThanOrEqual(RATE.limit);
    // The limit was what paced the runs (more requests than one window admits), and every request
    // the runs report is one the sandbox logged.
    expect(log.length).toBeGreaterThan(2 * RATE.limit);
    const reported = runs.flatMap((r) => [...r.stdout.matchAll(/ (\d+) requests,/g)].map((m) => Number(m[1])));
    expect(reported).toHaveLength(2 * PROJECTS.length * PIPELINE_NAMES.length);
    expect(reported.reduce((a, b) => a + b, 0)).toBe(log.length);
    // Every endpoint of both projects was read.
    const endpoints = new Set(log.map((x) => x.path));
    for (const p of PROJECTS) {
      for (const e of ['/assistant', '/feedback', '/feedback/by-page', '/searches', '/views', '/visitors', '/assistant/caller-stats']) {
        expect(endpoints.has(`/v1/analytics/${p}${e}`), `${p}${e}`).toBe(true);
      }
    }
  });

  it('the assistant head is fresh for both projects: its coverage reaches the time of the last run', async () => {
    const rows = await query(warehouse, `SELECT project_id, epoch_ms(head_at) AS head FROM freshness
      WHERE pipeline = 'assistant_conversations' ORDER BY project_id`);
    expect(rows.map((r) => r.project_id)).toEqual(PROJECTS);
    for (const r of rows) {
      expect(Number(r.head)).toBeGreaterThanOrEqual(started);
      expect(Number(r.head)).toBeLessThanOrEqual(ended);
    }
  });

  it('status --json: every pipeline of both projects, covered from --from to its head, backfill done, last run succeeded', () => {
    const byKey = new Map<string, StreamStatus>(status.streams.map((s) => [`${s.project_id}/${s.pipeline}`, s]));
    expect([...byKey.keys()].sort()).toEqual(PROJECTS.flatMap((p) => PIPELINE_NAMES.map((n) => `${p}/${n}`)).sort());
    const today = utcMidnight(ended);
    for (const s of status.streams) {
      const name = `${s.project_id}/${s.pipeline}`;
      expect(s.last_run?.status, name).toBe('succeeded');
      expect(s.covered_from, name).toBe(new Date(from).toISOString());
      expect(s.backfill, name).toMatchObject({ complete: true, remaining_requests: 0 });
      expect(s.open_window, name).toBeNull();
      const head = Date.parse(s.head_at!);
      if (['assistant_conversations', 'feedback'].includes(s.pipeline)) {
        // Event windows: read up to the run's own time.
        expect(head, name).toBeGreaterThanOrEqual(started);
        expect(head, name).toBeLessThanOrEqual(ended);
        expect(s.head_lag_s, name).toBeLessThanOrEqual(Math.ceil((Date.parse(status.checked_at) - started) / 1000));
      } else {
        // Day windows: every complete day, so up to today's midnight.
        expect(new Date(head).toISOString(), name).toBe(new Date(today).toISOString());
      }
      expect(s.quarantined, name).toBe(0);
    }
    expect(status.budget).toHaveLength(1);
    expect(status.budget[0]).toMatchObject({ limit: RATE.limit, window: '2s', blocked_until: null });
  });
});
