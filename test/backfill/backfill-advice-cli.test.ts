// Issue 34, item 2: a first backfill slower than a few days says so where a team looks, as a
// warning: `sync` on stderr after its run lines, `status --check` on stdout after its verdict, the
// exit code the run's and the verdict's; and `schedule --catch-up` reads the same truth to go
// hourly. The built CLI against the sandbox over HTTP: 28 days at 1,000 turns a day behind a budget
// of 10 requests an hour is more than 3 nightly runs.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, trafficOptions, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli, type CliResult } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_backfill_warning_cli_key';
const tmp = tempDir('docs-etl-backfill-warning-');
const warehouse = join(tmp.dir, 'w.duckdb');
const SLOW = /warning: first backfill of \S+ is slow: history complete in about \d+ nightly runs \(≈ \d+ days\);.*run hourly until it is complete.*schedule --catch-up/;
let sb: Sandbox | undefined;
let env: NodeJS.ProcessEnv;
let sync: CliResult;

beforeAll(async () => {
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], traffic: trafficOptions(1000), historyDays: 28, seed: 3436 }));
  env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
  sync = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '10/1h', '--max-wait', '0s'], env);
}, 120_000);
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('sync prints the slow-backfill warning on stderr, once, naming the catch-up; its exit code stays the run\'s', () => {
  // What does not fit the budget is deferred to later runs: exit 0, as without the warning.
  expect(sync.code, sync.stderr).toBe(0);
  expect(sync.stdout).toMatch(/\(\d+ deferred\)/);
  expect(sync.stdout).toMatch(/sync finished in \S+: exit 0\n$/);
  const warnings = sync.stderr.split('\n').filter((l) => l.startsWith('docs-etl: warning: first backfill'));
  expect(warnings, sync.stderr).toHaveLength(1);
  expect(warnings[0]).toMatch(SLOW);
});

it('status --check prints the same warning after its verdict; the verdict sets the exit code', async () => {
  const r = await runCli(['status', '--check', '--warehouse', warehouse, '--rate-limit', '10/1h'], env);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const [verdict, ...rest] = r.stdout.trim().split('\n');
  expect(verdict).toMatch(/^healthy/);
  expect(rest.filter((l) => SLOW.test(l)), r.stdout).toHaveLength(1);
}, 60_000);

/** `schedule` until its start line, then SIGTERM: what it says before any tick. */
async function scheduleStart(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  const child = spawnCli(['schedule', '--cron', '0 2 * * *', '--timezone', 'UTC', '--warehouse', warehouse, '--rate-limit', '10/1h', ...args], { ...env, ...extraEnv });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  await waitFor(() => /schedule started/.test(out), 60_000, 25);
  child.kill('SIGTERM');
  return child.result;
}

it('schedule --catch-up (or DOCS_ETL_CATCH_UP=1) starts hourly at the cron\'s minute while that backfill is left; without it, nightly', async () => {
  const iso = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
  for (const r of [await scheduleStart(['--catch-up']), await scheduleStart([], { DOCS_ETL_CATCH_UP: '1' })]) {
    expect(r.code, r.stderr).toBe(0);
    const [left, start] = r.stdout.trim().split('\n');
    expect(left).toMatch(new RegExp(`^${iso} backfill left: running hourly until complete \\(about \\d+ runs?\\), then "0 2 \\* \\* \\*"$`));
    expect(start).toMatch(new RegExp(`^${iso} schedule started: sync on "0 \\* \\* \\* \\*" \\(UTC\\), next run (${iso})$`));
    const next = Date.parse(start!.split(' ').at(-1)!);
    expect(new Date(next).getUTCMinutes()).toBe(0);
    expect(next - Date.parse(start!.split(' ')[0]!)).toBeLessThanOrEqual(3_600_000);
  }
  const plain = await scheduleStart([]);
  expect(plain.code, plain.stderr).toBe(0);
  expect(plain.stdout).not.toMatch(/backfill left/);
  expect(plain.stdout).toMatch(/schedule started: sync on "0 2 \* \* \*"/);
  const bad = await runCli(['schedule', '--cron', '0 2 * * *', '--warehouse', warehouse], { ...env, DOCS_ETL_CATCH_UP: 'maybe' });
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim()).toBe('docs-etl: DOCS_ETL_CATCH_UP must be 1 or 0 (true/false, yes/no, on/off), not "maybe"');
}, 120_000);
