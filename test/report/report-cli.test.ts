// `docs-etl report` and `schedule --report` as a user runs them: real processes, real DuckDB files.
// Bad input gets one line and exit 2; a missing or outdated warehouse one line and exit 1; the file
// is replaced atomically (no temporary file left behind).
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { defaultSandboxOptions, startSandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { publishForReaders } from '../helpers/publish.js';
import { waitFor } from '../helpers/wait.js';
import { KEY, syncedWarehouse } from './report-fixture.js';

let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
beforeAll(async () => {
  tmp = tempDir('docs-etl-report-cli-');
  warehouse = await syncedWarehouse(tmp.dir);
}, 300_000); // the first file of a run builds the shared fixture; the others wait for it
afterAll(() => tmp.cleanup());

const env = () => cliEnv({});

describe('docs-etl report (CLI)', () => {
  // Usage errors, found before anything is opened: the CLI's own main in-process (the same parsing
  // and one-line error, without a Node start each); the missing and outdated warehouse below, and
  // the reports written, are real processes.
  it.for<[string[], RegExp]>([
    [['report'], /required option '--out <file>' not specified/],
    [['report', '--out', ''], /--out.*must not be empty/],
    [['report', '--out', 'r.html', '--since', '30'], /--since.*give a unit, e\.g\. 30d/],
    [['report', '--out', 'r.html', '--since', 'soon'], /invalid duration "soon"/],
    [['report', '--out', 'r.html', '--since', '400d'], /at most 366d/],
    [['report', '--out', 'r.html', '--since', '0d'], /must be positive/],
    [['report', '--out', 'r.html', '--warehouse', ''], /--warehouse is empty/],
  ])('bad usage %j: one clear line, exit 2', async ([args, message], { expect }) => {
    const r = await runMain(args, env());
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an unknown project or a directory as --out: one line, exit 2, nothing written', async () => {
    const dir = join(tmp.dir, 'usage');
    mkdirSync(dir);
    const unknown = await runMain(['report', '--out', join(dir, 'r.html'), '--warehouse', warehouse, '--project', 'nope'], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('docs-etl: project "nope" is not in the warehouse (it has: demo)\n');
    const isDir = await runMain(['report', '--out', dir, '--warehouse', warehouse], env());
    expect(isDir.code).toBe(2);
    expect(isDir.stderr).toMatch(/^docs-etl: --out .* is a directory: give a file name such as .*\/report\.html\n$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a missing warehouse, or one written by an older docs-etl: one line, exit 1', async () => {
    const missing = await runCli(['report', '--out', join(tmp.dir, 'r.html'), '--warehouse', join(tmp.dir, 'none.duckdb')], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^docs-etl: error: warehouse .*none\.duckdb does not exist yet: run `docs-etl sync` first\n$/);
    const old = join(tmp.dir, 'old.duckdb');
    (await openWarehouse(old)).close();
    await publishForReaders(old);
    // The snapshot an older docs-etl published: without the view (opened raw: openWarehouse would add it).
    const snap = await DuckDBInstance.create(join(tmp.dir, 'read', 'old.duckdb'));
    const c = await snap.connect();
    await c.run('DROP VIEW daily_cited_sources');
    c.closeSync();
    snap.closeSync();
    const outdated = await runCli(['report', '--out', join(tmp.dir, 'r.html'), '--warehouse', old], env());
    expect(outdated.code).toBe(1);
    expect(outdated.stderr).toBe('docs-etl: error: the warehouse has no view daily_cited_sources: it was last written by an older docs-etl; run `docs-etl sync` once to update its views\n');
  });

  it('writes one self-contained file, replaces it atomically, leaves no temporary file, honours --project and --since', async () => {
    const dir = join(tmp.dir, 'atomic', 'nested');
    const out = join(dir, 'gaps.html');
    const first = await runCli(['report', '--out', out, '--warehouse', warehouse, '--project', 'demo', '--since', '7d'], env());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/gaps\.html: demo, (\d{4}-\d\d-\d\d) → \d{4}-\d\d-\d\d \(UTC\)/);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^<!doctype html>/);
    expect(text).toContain('(7 UTC days, today so far included)');
    // Self-contained: no reference to anything outside the file.
    expect(text).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(text).toContain('https://d3js.org v7');
    expect(Buffer.byteLength(text)).toBeLessThan(2_000_000);
    const inode = statSync(out).ino;
    const second = await runCli(['report', '--out', out, '--warehouse', warehouse], env());
    expect(second.code, second.stderr).toBe(0);
    expect(statSync(out).ino).not.toBe(inode); // a new file renamed over the old one, not rewritten in place
    expect(readdirSync(dir)).toEqual(['gaps.html']);
  });

  it('schedule --report rewrites the report after each run', async () => {
    const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 300, seed: 4 }));
    const dir = join(tmp.dir, 'schedule');
    const out = join(dir, 'report.html');
    const child = spawnCli(['schedule', '--cron', '* * * * * *', '--warehouse', join(dir, 'w.duckdb'), '--rate-limit', '1000/1h', '--report', out],
      cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }));
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    try {
      // Two runs with a sync and a report each: a bound for a loaded 2-core machine, not a speed claim.
      await waitFor(() => (stdout.match(/report .*report\.html: demo/g) ?? []).length >= 2, 60_000, 50);
    } finally {
      child.kill('SIGTERM');
    }
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    // The sandbox's 300 turns span the last 30×24 h; the period's 30 UTC days hold most of them.
    const turns = Number(/report .*report\.html: demo, .*, ([\d,]+) turns;/.exec(stdout)![1]!.replace(/,/g, ''));
    expect(turns).toBeGreaterThan(250);
    expect(turns).toBeLessThanOrEqual(300);
    expect(readFileSync(out, 'utf8')).toContain(`data-metric="turns" data-value="${turns}"`);
    expect(readdirSync(dir).filter((f) => f.includes('report'))).toEqual(['report.html']);
    await sb.close();
    const bad = await runMain(['schedule', '--report', dir], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^docs-etl: --report .* is a directory/);
  }, 90_000);
});
