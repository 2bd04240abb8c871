// `docs-etl schedule` as a long-running process: seconds cron, no overlaps, clean SIGTERM.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { smallSandboxOptions } from '../helpers/small-sandbox.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_schedule_test_key';
let sb: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sb?.close();
  tmp?.cleanup();
  sb = undefined;
  tmp = undefined;
});

/** Collects both streams of a running child so a test can wait for what it prints, not for a fixed time. */
function watch(child: { stdout: NodeJS.ReadableStream | null; stderr: NodeJS.ReadableStream | null }) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => (out.stdout += String(d)));
  child.stderr?.on('data', (d) => (out.stderr += String(d)));
  return out;
}
const count = (text: string, re: RegExp) => (text.match(new RegExp(re.source, 'g')) ?? []).length;

async function runs(warehouse: string) {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const r = await wh.conn.runAndReadAll('SELECT status, epoch_ms(started_at) s, epoch_ms(finished_at) f, pages FROM sync_runs ORDER BY started_at');
    return r.getRowObjectsJS().map((x) => ({ status: String(x.status), s: Number(x.s), f: Number(x.f), pages: Number(x.pages) }));
  } finally {
    wh.close();
  }
}

describe('docs-etl schedule', () => {
  it('runs on each seconds tick, skips ticks while a slower run is going, never overlaps', async () => {
    tmp = tempDir();
    // Each request takes 700 ms, so a run (≥ 2 requests) is slower than the 1 s interval. A week of
    // history (smallSandboxOptions): the ticks are the point, not the volume of the first run.
    sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], conversations: 1500, seed: 41, latencyMs: 700 }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'info' });
    const lake = join(tmp.dir, 'lake');
    const child = spawnCli(['schedule', '--cron', '* * * * * *', '--warehouse', warehouse, '--rate-limit', '1000/1h', '--lake', lake], env);
    const seen = watch(child);
    // Three finished runs (each ends with its lake line) and at least one skipped tick.
    await waitFor(() => count(seen.stdout, /partition\(s\) written/) >= 3 && /tick skipped/.test(seen.stderr), 120_000, 50);
    const t = Date.now();
    child.kill('SIGTERM');
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - t).toBeLessThan(15_000); // the run in flight stops at its checkpoint and publishes
    expect(r.stderr).toMatch(/tick skipped: the previous run is still going/);
    const rows = await runs(warehouse);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.s).toBeGreaterThanOrEqual(rows[i - 1]!.f);
    expect(rows.slice(0, -1).every((x) => x.status === 'succeeded')).toBe(true);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    // Each tick also brought the Parquet lake up to date.
    expect(r.stdout).toMatch(/lake .*partition\(s\) written/);
    // stdout: the start line (the cron, its zone and the first tick, said before any run ends), then
    // one line per run, with its start, result (each project's and the lake's) and next run, times in ISO 8601.
    const [start, ...lines] = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const iso = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
    expect(start).toMatch(new RegExp(`^${iso} schedule started: sync on "\\* \\* \\* \\* \\* \\*" \\(.+\\), next run ${iso}$`));
    for (const line of lines) {
      expect(line).toMatch(new RegExp(`^${iso} sync finished in \\S+ \\(demo/assistant_conversations (succeeded|stopped), [\\d,]+ pages, [\\d,]+ turns(; lake .*)?\\); next run ${iso}$`));
    }
    const starts = lines.map((l) => Date.parse(l.split(' ')[0]!));
    const nexts = lines.map((l) => Date.parse(l.split(' ').at(-1)!));
    for (let i = 0; i < lines.length; i++) expect(nexts[i]!).toBeGreaterThan(starts[i]!);
    const mem = await openWarehouse(':memory:');
    try {
      const n = await mem.conn.runAndReadAll(`SELECT count(*) FROM read_parquet('${lake}/conversations/**/*.parquet', hive_partitioning = true)`);
      expect(n.getRows()[0]![0]).toBe(1500n);
    } finally {
      mem.close();
    }
  }, 180_000);

  it('SIGTERM mid-run commits the page in flight, exits 0, and the next start resumes exactly', async () => {
    tmp = tempDir();
    // 3,000 turns in a week: one backfill window of 3 pages. 1 s per request: the SIGTERM, sent once
    // the first page is requested, has two pages' time (2 s, waits, not CPU) to land before the
    // window could end on a loaded machine.
    sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], conversations: 3000, seed: 42, latencyMs: 1000 }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'info' });
    // One head, then the whole history as one backfill window of 3 pages.
    const wide = ['--from', new Date(Date.now() - 31 * 86_400_000).toISOString(), '--max-window', '32d'];
    const child = spawnCli(['schedule', '--cron', '0 0 1 1 *', '--run-now', '--warehouse', warehouse, '--rate-limit', '1000/1h', ...wide], env);
    // Stop once at least two pages were requested: the run is in the middle of its window.
    const sandbox = sb;
    await waitFor(() => sandbox.requestLog(KEY).length >= 2, 30_000, 25);
    const t = Date.now();
    child.kill('SIGTERM');
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    // The page in flight, its merge and one publish of what was merged (issue 33: a stopped run
    // still publishes), on a loaded machine.
    expect(Date.now() - t).toBeLessThan(15_000);
    expect(existsSync(join(tmp.dir, 'read', 'w.duckdb'))).toBe(true);
    const [stopped] = await runs(warehouse);
    expect(stopped).toMatchObject({ status: 'stopped' });
    expect(stopped!.pages).toBeGreaterThan(0);
    expect(stopped!.pages).toBeLessThan(4);
    // The resume's own pace is not in question: no latency for it.
    sb.configure({ latencyMs: 0 });
    const again = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '1000/1h', ...wide], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/resuming open window/);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    // Resumed, not restarted: the backfill window's 3 pages in all, plus one head per run.
    expect(sb.requestLog(KEY).filter((x) => x.status === 200).length).toBe(3 + 2);
  }, 90_000);

  it('a failing run is logged with its reason and the scheduler keeps going', async () => {
    tmp = tempDir();
    sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], conversations: 100, seed: 43 }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'no-such-project', LOG_LEVEL: 'info' });
    const child = spawnCli(['schedule', '--cron', '* * * * * *', '--warehouse', warehouse], env);
    const seen = watch(child);
    // Two ticks ended (one run line each), each naming the 404 of its run.
    await waitFor(() => count(seen.stdout, / failed \(exit 1\) in /) >= 2, 30_000, 50);
    child.kill('SIGTERM');
    const r = await child.result;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/project \\"no-such-project\\" was not found \(404\)/);
    const rows = await runs(warehouse);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    // Every tick that ended failed; a tick the SIGTERM caught mid-run may be recorded as stopped.
    expect(rows.filter((x) => x.status === 'failed').length).toBeGreaterThanOrEqual(2);
    expect(rows.every((x) => x.status === 'failed' || x.status === 'stopped'), JSON.stringify(rows)).toBe(true);
  }, 60_000);

  it('a second signal exits at once; the warehouse stays consistent', async () => {
    tmp = tempDir();
    // A small history: what is asked is that the resume after the hard exit ends equal to the truth.
    sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], conversations: 2000, seed: 44, latencyMs: 3000 }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'info' });
    // One head, then the whole history as one backfill window of 2 pages.
    const wide = ['--from', new Date(Date.now() - 31 * 86_400_000).toISOString(), '--max-window', '32d'];
    const child = spawnCli(['schedule', '--cron', '0 0 1 1 *', '--run-now', '--warehouse', warehouse, '--rate-limit', '1000/1h', ...wide], env);
    const sandbox = sb;
    await waitFor(() => sandbox.requestLog(KEY).length >= 1, 30_000, 25);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.kill('SIGTERM');
    await waitFor(() => /SIGTERM received, stopping at the next checkpoint/.test(stderr), 10_000, 10);
    const t = Date.now();
    child.kill('SIGINT');
    const r = await child.result;
    expect(Date.now() - t).toBeLessThan(1500);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/second SIGINT, exiting now/);
    sb.configure({ latencyMs: 0 });
    const again = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '1000/1h', ...wide], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
  }, 90_000);

  it('runs a static export on its own cron and keeps the deployment values fresh', async () => {
    tmp = tempDir();
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 100, seed: 45 }));
    sb.configure({ staticExport: { ...defaultSandboxOptions().staticExport, jobDurationMs: 300 } });
    const warehouse = join(tmp.dir, 'w.duckdb');
    const values = join(tmp.dir, 'values.yaml');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'info' });
    const child = spawnCli(['schedule', '--cron', '0 0 1 1 *', '--warehouse', warehouse, '--static-export-cron', '* * * * * *',
      '--static-export-domain', 'docs.example.com', '--static-export-values', values, '--static-export-out', join(tmp.dir, 'exports')], env);
    const seen = watch(child);
    await waitFor(() => /static export se_\w+ of docs.example.com: completed/.test(seen.stdout), 20_000, 50);
    child.kill('SIGTERM');
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/static export se_[0-9a-f]{16} of docs.example.com: completed/);
    const wh = await openWarehouse(warehouse, { readOnly: true });
    try {
      const jobs = (await wh.conn.runAndReadAll("SELECT count(*) FROM static_export_jobs WHERE status = 'completed'")).getRows()[0]![0];
      expect(jobs).toBeGreaterThanOrEqual(1n);
    } finally {
      wh.close();
    }
    expect((await import('node:fs')).readFileSync(values, 'utf8')).toMatch(/bundleUrl: "http/);
  }, 30_000);

  it('rejects a bad cron expression or time zone with one line and exit 2', async () => {
    const env = cliEnv({ DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' });
    // Usage errors, found before the scheduler starts: the CLI's main in-process (no Node start each).
    const bad = await runMain(['schedule', '--cron', '61 * * * *'], env);
    const tz = await runMain(['schedule', '--cron', '0 2 * * *', '--timezone', 'Mars/Olympus'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid cron expression/);
    expect(tz.code).toBe(2);
    expect(tz.stderr).toMatch(/unknown time zone "Mars\/Olympus"/);
  });
});
