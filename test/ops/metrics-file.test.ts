// Issue 36: `sync --metrics-file` (real processes). After a run the file holds every series in the
// textfile format, counters from the warehouse (a second process continues them); a SIGKILL while the
// sync is finishing leaves the file whole: the previous one or the new one, never a part (the file
// is written beside itself and renamed). No key appears in it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { parsePromText, sampleValue } from '../helpers/prom-text.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_ops_textfile_key_0001';
let sb: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sb?.close();
  tmp?.cleanup();
  sb = undefined;
});

it('writes the series after each run, counters from the warehouse, and a SIGKILL leaves the old file or the new one whole', { timeout: 240_000 }, async () => {
  tmp = tempDir();
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 400, historyDays: 3, seed: 363 }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const file = join(tmp.dir, 'docs_etl.prom');
  const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_ETL_METRICS_FILE: file });
  const sync = ['sync', '--warehouse', warehouse, '--rate-limit', '1000/1h'];
  const first = await runCli(sync, env);
  expect(first.code, first.stderr).toBe(0);
  const one = readFileSync(file, 'utf8');
  const e1 = parsePromText(one);
  expect(e1.types.get('docs_etl_api_requests_total')).toBe('counter');
  const l = { project: 'demo', pipeline: 'assistant_conversations' };
  expect(sampleValue(e1, 'docs_etl_rows_merged_total', l)).toBe(400);
  expect(sampleValue(e1, 'docs_etl_healthy', l)).toBe(1);
  expect(one).not.toContain(KEY);

  // A new process: its counters go on from the warehouse's totals.
  const second = await runCli([...sync, '--metrics-file', file], env);
  expect(second.code, second.stderr).toBe(0);
  const e2 = parsePromText(readFileSync(file, 'utf8'));
  const requests = (e: typeof e1) => e.samples.filter((s) => s.name === 'docs_etl_api_requests_total').reduce((n, s) => n + s.value, 0);
  expect(requests(e2)).toBeGreaterThan(requests(e1));
  expect(sampleValue(e2, 'docs_etl_run_duration_seconds_count', l)).toBe(2);

  // SIGKILL at different moments of the run's end: each time the file is the previous one or a whole new one.
  const marker = '# an older textfile, whole\n';
  for (const line of [/read snapshot published/, /assistant_conversations: succeeded/, /read snapshot published/]) {
    writeFileSync(file, marker);
    const child = spawnCli(sync, env);
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    await waitFor(() => line.test(out) || child.exitCode !== null, 60_000, 1);
    child.kill('SIGKILL');
    await child.result;
    const text = readFileSync(file, 'utf8');
    if (text !== marker) {
      const e = parsePromText(text);
      expect(sampleValue(e, 'docs_etl_healthy', l)).toBe(1);
      expect(text).toMatch(/docs_etl_run_duration_seconds_count\{[^}]*\} \d+\n/);
    }
    // Only the target and, at most, a killed writer's hidden temporary file: never a second visible one.
    expect(readdirSync(tmp.dir).filter((n) => n.includes('docs_etl.prom') && !n.startsWith('.'))).toEqual(['docs_etl.prom']);
  }
});

it('a --metrics-file in a folder that does not exist is one line and exit 2, before any request', async () => {
  tmp = tempDir();
  const r = await runCli(['sync', '--warehouse', join(tmp.dir, 'w.duckdb'), '--metrics-file', join(tmp.dir, 'no', 'such', 'x.prom')],
    cliEnv({ DOCS_API_BASE_URL: 'http://127.0.0.1:9', DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }));
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^docs-etl: --metrics-file: folder .* does not exist\n$/);
});
