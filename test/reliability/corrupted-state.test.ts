// Damaged local state: the shared request log, the warehouse file, the stored cursor, the Parquet
// lake. Each is either recovered (and the data is still complete) or refused with one clear line
// and exit 1, with nothing else touched. No warehouse data is ever lost.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/core/secrets.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, testStateHome } from '../helpers/cli.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { runMain } from '../helpers/in-process-cli.js';
import { smallSandboxOptions } from '../helpers/small-sandbox.js';
import { copyBase, syncBase } from '../helpers/synced-base.js';
import { tempDir } from '../helpers/tmp.js';
import { execute, query, sha256 } from './reliability-helpers.js';

const KEY = 'mint_reliability_corrupt';
// Catches a hang, not slowness: each case takes a few seconds alone, and the suite runs two files at
// a time on a 2-core machine that may be shared (vitest.reliability.config.ts).
const HANG = 120_000;
let sb: Sandbox;
// A first sync of `sb`, in-process, once: the damaged-log and damaged-warehouse cases copy it (their
// point is the damage and the next command, not the first sync; the stale-lock case syncs from nothing).
let base: string;
const tmp = tempDir('docs-etl-corrupt-');
beforeAll(async () => {
  // A small history: these cases are about damaged files, not volume.
  sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], seed: 81 }));
  base = await syncBase({ url: sb.url, key: KEY, projects: ['demo'] }, join(tmp.dir, 'base'));
}, HANG);
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = (over: Record<string, string> = {}) =>
  cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', ...over });
// The request log beside each warehouse (DOCS_ETL_BUDGET_DIR), where these tests damage it.
const sync = (warehouse: string, ...extra: string[]) =>
  runCli(['sync', '--warehouse', warehouse, '--rate-limit', '10000/1h', ...extra], env({ DOCS_ETL_BUDGET_DIR: join(dirname(warehouse), 'budget') }));
const expectComplete = async (warehouse: string) => expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
const oneLine = (stderr: string) => stderr.trim().split('\n').filter(Boolean);
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));

describe('damaged request log (the shared budget file)', () => {
  for (const [name, damage, reported] of [
    ['truncated', (f: string) => truncateSync(f, Math.floor(readFileSync(f).length / 2)), true],
    ['garbage', (f: string) => writeFileSync(f, '\u0000\u0001 not json at all {{{'), true],
    // Readable JSON: the entries that are not slots are dropped, silently.
    ['valid JSON of the wrong shape', (f: string) => writeFileSync(f, JSON.stringify({ entries: [{ start: 'x' }, 5, null], blockedUntil: 'soon' })), false],
  ] as const) {
    it(`${name}: ${reported ? 'reported; ' : ''}the next sync starts a fresh log, completes, and writes a sound log again`, async () => {
      const dir = join(tmp.dir, `log-${name.replace(/\W+/g, '-')}`);
      const warehouse = await copyBase(base, dir, { surface: 'none' });
      const log = join(dir, 'budget', `${keyFingerprint(KEY)}.json`);
      expect(existsSync(log)).toBe(true);
      damage(log);
      const r = await sync(warehouse);
      expect(r.code, r.stderr).toBe(0);
      if (reported) expect(r.stderr).toMatch(/request log was damaged: starting a fresh one/);
      await expectComplete(warehouse);
      const state = JSON.parse(readFileSync(log, 'utf8')) as { entries: unknown[] };
      expect(state.entries.length).toBeGreaterThan(0);
    }, HANG);
  }

  it('a lock left by a killed process (stale) is taken over', async () => {
    const dir = join(tmp.dir, 'stale-lock');
    const warehouse = join(dir, 'w.duckdb');
    const lock = join(dir, 'budget', `${keyFingerprint(KEY)}.json.lock`);
    mkdirSync(lock, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const r = await sync(warehouse);
    expect(r.code, r.stderr).toBe(0);
    await expectComplete(warehouse);
  }, HANG);
});

describe('a warehouse file that is not a DuckDB database', () => {
  const cases: [string, (path: string) => void, RegExp][] = [
    ['text', (p) => writeFileSync(p, 'this is not a database\n'.repeat(1000)), /warehouse .*bad-text\.duckdb is damaged or not a DuckDB file/],
    ['empty', (p) => writeFileSync(p, ''), /warehouse .*bad-empty\.duckdb is damaged or not a DuckDB file/],
    ['header-overwritten', (p) => {
      writeFileSync(p, readFileSync(goodCopy()));
      const buf = readFileSync(p);
      buf.fill(0x41, 0, 4096);
      writeFileSync(p, buf);
    }, /warehouse .*bad-header-overwritten\.duckdb is damaged or not a DuckDB file/],
    ['truncated', (p) => {
      writeFileSync(p, readFileSync(goodCopy()));
      truncateSync(p, Math.floor(readFileSync(p).length / 2));
    }, /warehouse .*bad-truncated\.duckdb is damaged or not a DuckDB file/],
  ];
  let good: string | undefined;
  function goodCopy(): string {
    if (!good) throw new Error('no good warehouse yet');
    return good;
  }
  beforeAll(async () => {
    good = await copyBase(base, join(tmp.dir, 'good'), { surface: 'none' });
  }, HANG);

  for (const [name, make, message] of cases) {
    // The first case runs the built CLI (what a user sees: the process's exit code and stderr); the
    // others the same `main` in-process, without a Node start and DuckDB load per command.
    const run = name === cases[0]![0] ? runCli : runMain;
    it(`${name}: sync, status and export-parquet say so in one line, exit 1, and touch nothing`, async () => {
      const dir = join(tmp.dir, `bad-${name}`);
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `bad-${name}.duckdb`);
      make(path);
      const before = sha256(path);
      const filesBefore = readdirSync(dir).sort();
      for (const args of [
        ['sync', '--warehouse', path, '--rate-limit', '10000/1h'],
        ['status', '--warehouse', path],
        ['export-parquet', '--warehouse', path, '--out', join(dir, 'lake')],
      ]) {
        const r = await run(args, env());
        expect(r.code, `${args[0]}: ${r.stderr}`).toBe(1);
        expect(oneLine(r.stderr), args[0]).toHaveLength(1);
        expect(r.stderr, args[0]).toMatch(message);
        expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      }
      expect(sha256(path)).toBe(before);
      // export-parquet may have created the (empty) lake folder before the warehouse failed it.
      expect(readdirSync(dir).filter((f) => f !== 'lake').sort()).toEqual(filesBefore);
      if (existsSync(join(dir, 'lake'))) expect(filesUnder(join(dir, 'lake'))).toEqual([]);
      expect(existsSync(join(testStateHome(), 'docs-etl', 'budget'))).toBe(false); // no request was made (the test's per-user budget)
    }, HANG);
  }
});

describe('a stored cursor the API rejects', () => {
  // Its own sandbox: 4,000 turns in the last half hour, so a first sync's head window (the last hour)
  // holds four pages and a budget of two stops it halfway, with its cursor stored.
  let recent: Sandbox;
  // One sync stopped on budget after 2 of 4 pages (an open window with a cursor), in-process: each
  // case damages a copy of it.
  const open = join(tmp.dir, 'cursor-open');
  beforeAll(async () => {
    recent = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 4000, seed: 82, historyDays: 0.02 }));
    const first = await runMain(['sync', '--warehouse', join(open, 'w.duckdb'), '--rate-limit', '2/1h', '--max-wait', '0s'], recentEnv());
    expect(first.code, first.stderr).toBe(3);
    const [state] = await query(join(open, 'w.duckdb'), 'SELECT cursor, pages FROM sync_state');
    expect(state).toMatchObject({ pages: 2 });
    expect(state!.cursor).toEqual(expect.any(String));
  }, HANG);
  afterAll(() => recent.close());
  const recentEnv = (over: Record<string, string> = {}) => ({ ...env(over), DOCS_API_BASE_URL: recent.url });
  for (const [name, cursor] of [['garbage', 'not-a-cursor; DROP TABLE x'], ['unknown ULID', '01ARZ3NDEKTSV4RRFFQ69G5FAV']] as const) {
    it(`${name}: the window restarts from its start and the data is complete`, async () => {
      const dir = join(tmp.dir, `cursor-${name.replace(/\W+/g, '-')}`);
      cpSync(open, dir, { recursive: true });
      const warehouse = join(dir, 'w.duckdb');
      await execute(warehouse, `UPDATE sync_state SET cursor = '${cursor.replaceAll("'", "''")}'`);
      const r = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '10000/1h'], recentEnv({ LOG_LEVEL: 'info' }));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/stored cursor rejected: restarting the window from its start/);
      expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(recent.truth('demo')));
      expect(await scalar(warehouse, 'SELECT count(*) FROM sync_state WHERE window_to IS NOT NULL')).toBe(0n);
    }, HANG);
  }
});
