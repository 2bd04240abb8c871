// Issue 36: `schedule --metrics-listen 127.0.0.1:0`, a real process, scraped after two ticks: every
// series present and parsed by a strict Prometheus text parser, values equal to `status --json`;
// /healthz 200; /readyz 503 with status --check's line while the sandbox is stopped, 200 once back.
// `status` runs in-process (runMain: the same command and exit code, without a Node start and DuckDB
// load each); the schedule it is compared with is a real process.
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, spawnCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { parsePromText, sampleValue, type Exposition } from '../helpers/prom-text.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_ops_metrics_key_0001';
let sb: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sb?.close();
  tmp?.cleanup();
  sb = undefined;
});

const SERIES = [
  'docs_etl_last_success_timestamp_seconds', 'docs_etl_last_run_timestamp_seconds', 'docs_etl_last_run_status',
  'docs_etl_newest_record_timestamp_seconds', 'docs_etl_head_timestamp_seconds', 'docs_etl_unsettled_seconds',
  'docs_etl_rows_merged_total', 'docs_etl_rows_quarantined_total', 'docs_etl_api_requests_total', 'docs_etl_budget_used',
  'docs_etl_budget_limit', 'docs_etl_rate_limited_total', 'docs_etl_deferred_windows', 'docs_etl_run_duration_seconds', 'docs_etl_healthy',
];

async function get(url: string): Promise<{ code: number; text: string }> {
  const r = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  return { code: r.status, text: await r.text() };
}

/** Polls until `cond` holds for an answer of `url` (each poll a real request), within `ms`. */
async function until(url: string, cond: (r: { code: number; text: string }) => boolean, ms: number): Promise<{ code: number; text: string }> {
  const end = Date.now() + ms;
  for (;;) {
    const r = await get(url);
    if (cond(r) || Date.now() > end) return r;
    await new Promise((res) => setTimeout(res, 200));
  }
}

it('serves every series equal to status --json, /healthz, and /readyz following status --check', { timeout: 300_000 }, async () => {
  tmp = tempDir();
  const options = defaultSandboxOptions({ apiKeys: [KEY], conversations: 500, historyDays: 3, seed: 362 });
  sb = await startSandbox(options);
  const port = Number(new URL(sb.url).port);
  const warehouse = join(tmp.dir, 'w.duckdb');
  const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' });
  const child = spawnCli(['schedule', '--cron', '*/6 * * * * *', '--run-now', '--warehouse', warehouse, '--rate-limit', '1000/1h', '--metrics-listen', '127.0.0.1:0'], env);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  try {
    await waitFor(() => /metrics on http:\/\/127\.0\.0\.1:\d+\/metrics\n/.test(out), 30_000, 20);
    const base = /metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(out)![1]!;
    await waitFor(() => (out.match(/ sync finished /g) ?? []).length >= 2, 60_000, 50);
    expect((await get(`${base}/healthz`)).code).toBe(200);

    // A scrape, status --json, a scrape: when no tick came between the scrapes, status saw the same state.
    let scrape: Exposition | null = null;
    interface StatusJson { streams: Record<string, unknown>[]; budget: { organization: string; used: number; limit: number }[] }
    let status: StatusJson | null = null;
    const lastRun = (e: Exposition) => e.samples.find((x) => x.name === 'docs_etl_last_run_timestamp_seconds')?.value;
    for (let i = 0; i < 10 && !scrape; i++) {
      const a = parsePromText((await get(`${base}/metrics`)).text);
      const s = await runMain(['status', '--json', '--warehouse', warehouse, '--rate-limit', '1000/1h'], env);
      const b = parsePromText((await get(`${base}/metrics`)).text);
      const st = JSON.parse(s.stdout) as StatusJson;
      const started = Date.parse((st.streams[0] as { last_run: { started_at: string } }).last_run.started_at) / 1000;
      if (lastRun(a) === lastRun(b) && lastRun(b) === started) {
        scrape = b;
        status = st;
      }
    }
    expect(scrape, 'no quiet moment between ticks').not.toBeNull();
    const e = scrape!;
    for (const name of SERIES) expect(e.types.has(name), name).toBe(true);
    for (const name of SERIES) expect(e.samples.some((s) => s.name === name || s.name.startsWith(`${name}_`)), name).toBe(true);
    const x = status!.streams[0] as { project_id: string; pipeline: string; organization: string; head_at: string; newest_record_at: string; unsettled_s: number; last_run: { status: string; started_at: string } };
    const l = { project: x.project_id, pipeline: x.pipeline, org: x.organization };
    expect(x.organization).toMatch(/^org_[0-9a-f]+$/);
    expect(sampleValue(e, 'docs_etl_last_run_timestamp_seconds', l)).toBe(Date.parse(x.last_run.started_at) / 1000);
    expect(sampleValue(e, 'docs_etl_head_timestamp_seconds', l)).toBe(Date.parse(x.head_at) / 1000);
    expect(sampleValue(e, 'docs_etl_newest_record_timestamp_seconds', l)).toBe(Date.parse(x.newest_record_at) / 1000);
    expect(sampleValue(e, 'docs_etl_unsettled_seconds', l)).toBe(x.unsettled_s);
    expect(sampleValue(e, 'docs_etl_last_run_status', { ...l, status: x.last_run.status })).toBe(1);
    expect(e.samples.filter((s) => s.name === 'docs_etl_last_run_status' && s.value === 1)).toHaveLength(1);
    expect(sampleValue(e, 'docs_etl_budget_limit', { org: status!.budget[0]!.organization })).toBe(status!.budget[0]!.limit);
    expect(sampleValue(e, 'docs_etl_budget_used', { org: status!.budget[0]!.organization })).toBeGreaterThanOrEqual(status!.budget[0]!.used);
    expect(sampleValue(e, 'docs_etl_healthy', l)).toBe(1);
    // By endpoint: the export's reads, and the first run's probe of where history starts (caller-stats).
    const answered = e.samples.filter((s) => s.name === 'docs_etl_api_requests_total' && s.labels.project === l.project && s.labels.pipeline === l.pipeline && s.labels.code === '200');
    expect(answered.find((s) => s.labels.endpoint?.endsWith('/caller-stats'))?.value ?? 0, 'the probe is counted under its own endpoint').toBeLessThanOrEqual(9);
    expect(answered.filter((s) => !s.labels.endpoint?.endsWith('/caller-stats')).reduce((n, s) => n + s.value, 0)).toBeGreaterThanOrEqual(2);
    expect(sampleValue(e, 'docs_etl_run_duration_seconds_count', l)).toBeGreaterThanOrEqual(2);
    expect(sampleValue(e, 'docs_etl_rows_merged_total', l)).toBeGreaterThanOrEqual(500);
    const check = await runMain(['status', '--check', '--warehouse', warehouse, '--rate-limit', '1000/1h'], env);
    expect(check.code).toBe(0);
    expect((await get(`${base}/readyz`)).code).toBe(200);
    for (const t of [(await get(`${base}/metrics`)).text, out]) expect(t).not.toContain(KEY);

    // The sandbox stops: the next tick fails, and /readyz says what status --check says.
    await sb.close();
    sb = undefined;
    const bad = await until(`${base}/readyz`, (r) => r.code === 503, 120_000);
    expect(bad.code).toBe(503);
    expect(bad.text).toMatch(/^unhealthy: demo\/assistant_conversations: last run failed/);
    const cli = await runMain(['status', '--check', '--warehouse', warehouse, '--rate-limit', '1000/1h'], env);
    expect(cli.code).toBe(1);
    const stopped = parsePromText((await get(`${base}/metrics`)).text);
    expect(sampleValue(stopped, 'docs_etl_healthy', l)).toBe(0);
    expect(sampleValue(stopped, 'docs_etl_last_run_status', { ...l, status: 'failed' })).toBe(1);
    expect(sampleValue(stopped, 'docs_etl_api_requests_total', { ...l, code: 'error' })).toBeGreaterThanOrEqual(1);
    // Counters never go back.
    expect(sampleValue(stopped, 'docs_etl_rows_merged_total', l)).toBeGreaterThanOrEqual(sampleValue(e, 'docs_etl_rows_merged_total', l));
    expect((await get(`${base}/healthz`)).code).toBe(200);
    // Back: the next tick succeeds.
    sb = await startSandbox({ ...options, port });
    const good = await until(`${base}/readyz`, (r) => r.code === 200, 120_000);
    expect(good.code, good.text).toBe(200);
    expect(good.text).toMatch(/^healthy: 1 stream\(s\)/);
  } finally {
    child.kill('SIGTERM');
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
  }
});
