// The demo is harmless: run in a folder that already holds a real warehouse and request log, it
// leaves both byte-identical, refuses to delete a warehouse it did not create, and cleans up only
// after itself (or anything, with --force). Real child processes, real DuckDB files.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLog } from '../../src/budget/request-log.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { BIN, cliEnv, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir('docs-etl-demo-');
  // A user's real setup under the default layout: a warehouse with data and a request log.
  const wh = await openWarehouse(join(tmp.dir, 'state', 'warehouse.duckdb'));
  try {
    await wh.conn.run(`INSERT INTO quarantine VALUES ('acme', 'run-1', now(), 'kept', '{"a":1}', NULL)`);
  } finally {
    wh.close();
  }
  await new RequestLog(join(tmp.dir, 'state', 'budget'), 'org_0123456789abcdef').update((s) => {
    s.entries.push({ id: 'x', start: 1, end: 2, pid: 1 });
  });
});
afterAll(() => tmp.cleanup());

/** path → sha256 of every file under dir, skipping the demo's own folder. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(d.parentPath, d.name);
    if (!d.isFile() || relative(dir, p).startsWith(join('state', 'demo'))) continue;
    out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
  }
  return out;
}

/** The built CLI in `cwd`, so relative defaults (state/…) land in the temp folder. */
function demo(args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, 'demo', '--conversations', '200', ...args], {
    cwd: tmp.dir, env: cliEnv({}), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe('docs-etl demo beside a real setup', () => {
  it('leaves the real warehouse and request log byte-identical and keeps to state/demo/', async () => {
    const before = snapshot(tmp.dir);
    expect(Object.keys(before).sort()).toEqual([join('state', 'budget', 'org_0123456789abcdef.json'), join('state', 'warehouse.duckdb')]);
    const r = await demo([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/top unanswered questions/);
    expect(snapshot(tmp.dir)).toEqual(before);
    expect(existsSync(join(tmp.dir, 'state', 'demo', 'warehouse.duckdb'))).toBe(true);
    expect(existsSync(join(tmp.dir, 'state', 'demo', 'warehouse.duckdb.demo.json'))).toBe(true);
    expect(existsSync(join(tmp.dir, 'state', 'demo', 'warehouse.duckdb.demo-budget'))).toBe(true);
    // The page list says what it rests on: the days each of its sources is loaded.
    expect(r.stdout).toMatch(/pages to improve[\s\S]*\ncoverage: of \d+ day\(s\), turns are loaded on \d+, thumbs on \d+, views on \d+, visitors on \d+: /);
    // The query command it prints runs as printed (`npx docs-etl` is the package's bin: this checkout's).
    const printed = /^query it: (.*)$/m.exec(r.stdout)?.[1];
    expect(printed, r.stdout).toMatch(/ npx docs-etl query /);
    const bin = join(tmp.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(BIN, join(bin, 'docs-etl'));
    const q = spawnSync('/bin/sh', ['-c', printed!.replace('npx docs-etl', 'docs-etl')], {
      cwd: tmp.dir, env: { ...cliEnv({}), PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8', timeout: 60_000,
    });
    expect(q.status, q.stderr).toBe(0);
    expect(q.stdout).toMatch(/^project_id,category,turns,unanswered,unanswered_rate\r?\ndemo,/);
  }, 60_000);

  it('refuses to delete a --warehouse it did not create: exit 2, one line, nothing touched', async () => {
    const before = snapshot(tmp.dir);
    const r = await demo(['--warehouse', join('state', 'warehouse.duckdb')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^docs-etl: .*state\/warehouse\.duckdb was not created by the demo .*pass --force to delete it\n$/);
    expect(snapshot(tmp.dir)).toEqual(before);
  });

  it('a second demo replaces its own files; --force replaces a foreign file', async () => {
    const foreign = join(tmp.dir, 'scratch', 'old.duckdb');
    mkdirSync(join(tmp.dir, 'scratch'));
    writeFileSync(foreign, 'not a warehouse');
    const before = snapshot(tmp.dir);
    delete before[relative(tmp.dir, foreign)];
    const [again, forced] = await Promise.all([demo([]), demo(['--warehouse', foreign, '--force'])]);
    expect(again.code, again.stderr).toBe(0);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(foreign).subarray(0, 4).toString()).not.toBe('not ');
    const after = snapshot(tmp.dir);
    delete after[relative(tmp.dir, foreign)];
    // Its own files beside it: marker, budget, landing zone, read snapshot.
    for (const k of Object.keys(after)) if (k.startsWith(join('scratch', 'old.duckdb.demo'))) delete after[k];
    expect(after).toEqual(before);
  }, 90_000);
});
