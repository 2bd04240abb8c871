// `status --check` judges re-read deadlines by the schedule sync uses: the config's `rereads` (or
// `--rereads`), not the default. A warehouse read once three days ago, never re-read: by the
// default schedule (settle 24 h + 6 h after an interval ends) its settle read is two days overdue;
// by a config that settles after 96 h nothing is due yet. A monitor running `status --check
// --config` must not page about a schedule the team never configured.
// The first check is a real process (the exit code a monitor sees); the others run the CLI's main
// in-process (in-process-cli.ts: the same command and lines, without a Node start and DuckDB load each).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_status_rereads_key_1';
const H = 3_600_000;
const tmp = tempDir('docs-etl-status-rereads-');
const warehouse = join(tmp.dir, 'w.duckdb');
const budgetDir = join(tmp.dir, 'budget');
let sb: Sandbox | undefined;

beforeAll(async () => {
  // Three days ago on the hour, so the assistant's intervals end about 72 h before the check.
  const clock = new FakeClock(Math.floor(Date.now() / H) * H - 72 * H);
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 300, historyDays: 2, seed: 2121, clock }));
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { budgetDir });
  const assistant = PIPELINES.filter((p) => p.name === 'assistant_conversations');
  const r = await runSync({ clock, logger: silentLogger }, cfg, assistant);
  expect(r.exitCode, r.runs.map((x) => x.error).join('; ')).toBe(0);
}, 120_000);
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

function config(rereads?: string): string {
  const file = join(tmp.dir, `config-${rereads ?? 'default'}.json`);
  writeFileSync(file, JSON.stringify({
    warehouse, budgetDir, projects: [{ id: 'demo', apiKeyEnv: 'DOCS_API_KEY' }], ...(rereads ? { rereads } : {}),
  }));
  return file;
}

const check = (args: string[], real = false) => (real ? runCli : runMain)(['status', '--check', '--max-age', '7d', ...args], cliEnv({ DOCS_API_KEY: KEY }));

it('by the default schedule, the settle read never made is reported overdue (exit 1, one line naming it)', async () => {
  const r = await check(['--config', config()], true);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout + r.stderr).toMatch(/demo\/assistant_conversations: a due settle read \(.*\) is .* past its deadline/);
});

it('the config\'s rereads (settle after 96 h) decide: nothing is due yet, the check is healthy', async () => {
  const r = await check(['--config', config('96h+24h')]);
  expect(r.stdout + r.stderr).not.toMatch(/past its deadline/);
  expect(r.code, r.stdout + r.stderr).toBe(0);
});

it('--rereads on the command line decides the same way, and wins over the config', async () => {
  const flag = await check(['--warehouse', warehouse, '--rereads', '96h+24h']);
  expect(flag.code, flag.stdout + flag.stderr).toBe(0);
  const over = await check(['--config', config('96h+24h'), '--rereads', '3h+2h,24h+6h']);
  expect(over.code, over.stdout + over.stderr).toBe(1);
});
