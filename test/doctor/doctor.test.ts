// `docs-etl doctor` against the sandbox over real HTTP: all ✓ on a good setup; a wrong key, an
// unknown project, a held warehouse and a used-up budget each give ✗ with the fix; one request per
// project, spent through the persisted request budget.
import { spawn } from 'node:child_process';
import { holdDuckDb } from '../helpers/holder.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLog } from '../../src/budget/request-log.js';
import { main } from '../../src/cli/main.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_doctor_test_key_7777';
const BASIC_KEY = 'mint_doctor_basic_plan_key';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir('docs-etl-doctor-');
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], nonEnterpriseKeys: [BASIC_KEY], projects: ['demo', 'docs'], conversations: 50 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

function sink(): Writable & { text: () => string } {
  let out = '';
  const w = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } });
  return Object.assign(w, { text: () => out });
}

async function doctor(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(['node', 'docs-etl', 'doctor', ...args], {
    stdout, stderr, signal: new AbortController().signal,
    env: { LOG_LEVEL: 'silent', DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', ...env },
  });
  return { code, out: stdout.text(), err: stderr.text(), lines: stdout.text().trim().split('\n') };
}

const analyticsRequests = (key: string) => sb.requestLog(key).filter((r) => r.path.startsWith('/v1/analytics/')).length;
const line = (lines: string[], prefix: string) => lines.find((l) => l.slice(2).startsWith(prefix)) ?? `(no line ${prefix})`;

describe('docs-etl doctor', () => {
  it('a good setup: every line ✓, exit 0, one analytics request spent through the request log (the installed CLI, through its launcher)', async () => {
    const dir = join(tmp.dir, 'good');
    const before = analyticsRequests(KEY);
    const state = join(dir, 'state');
    const r = await runCli(['doctor', '--warehouse', join(dir, 'w.duckdb')],
      cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', XDG_STATE_HOME: state }), { launcher: true });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').filter((l) => l && !l.startsWith('doctor:'));
    expect(lines.map((l) => /^\S+ [\w-]+/.exec(l)![0])).toEqual(
      ['✓ config', '✓ key', '✓ api', '✓ static-export', '✓ budget', '✓ warehouse', '✓ read-snapshot', expect.stringMatching(/^[✓!] disk$/), '✓ versions', '✓ node']);
    expect(line(lines, 'node')).toBe('✓ node: runs with the launcher\'s memory settings (MALLOC_ARENA_MAX=2 --optimize-for-size --max-semi-space-size=1)');
    expect(line(lines, 'api demo')).toMatch(/project found, key accepted/);
    expect(line(lines, 'budget')).toMatch(/1 of 100 requests used in the last 1h/);
    expect(r.stdout).toMatch(/\ndoctor: all good/);
    expect(analyticsRequests(KEY) - before).toBe(1);
    const log = JSON.parse(readFileSync(join(state, 'docs-etl', 'budget', `${keyFingerprint(KEY)}.json`), 'utf8')) as { entries: unknown[] };
    expect(log.entries).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(readFileSync(join(state, 'docs-etl', 'budget', `${keyFingerprint(KEY)}.json`), 'utf8')).not.toContain(KEY);
  });

  it('node started without the launcher (node bin/docs-etl.js): ! node naming the flags and the fix, still exit 0', async () => {
    const dir = join(tmp.dir, 'bare');
    const r = await runCli(['doctor', '--warehouse', join(dir, 'w.duckdb')],
      cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', XDG_STATE_HOME: join(dir, 'state') }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(line(lines, 'node')).toBe('! node: runs without MALLOC_ARENA_MAX=2 --optimize-for-size --max-semi-space-size=1: a full sync\'s peak memory is about a third higher '
      + '(docs/sync.md, Memory and threads) → fix: start the installed `docs-etl` (its launcher sets them), or `MALLOC_ARENA_MAX=2 node --optimize-for-size --max-semi-space-size=1 <path to>/bin/docs-etl.js …`');
    expect(r.stdout).toMatch(/\ndoctor: all good \(\d+ warning\(s\)\)\n$/);
  });

  it('a wrong key: ✗ naming the variable to fix, exit 1, the key not shown', async () => {
    const r = await doctor(['--warehouse', join(tmp.dir, 'wrong', 'w.duckdb')], { DOCS_API_KEY: 'mint_not_a_real_key_42' });
    expect(r.code).toBe(1);
    expect(line(r.lines, 'api demo')).toBe('✗ api demo: the API rejected the key (401) → fix: set DOCS_API_KEY to a valid admin key (dashboard → API keys; keys expire)');
    expect(r.out).toMatch(/\ndoctor: \d+ problem\(s\) to fix\n$/);
    expect(r.out).not.toContain('mint_not_a_real_key_42');
  });

  it('a key that is not an admin key is caught without a request', async () => {
    const before = sb.requestLog('mint_dsc_assistant_key').length;
    const r = await doctor(['--warehouse', join(tmp.dir, 'dsc', 'w.duckdb')], { DOCS_API_KEY: 'mint_dsc_assistant_key' });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/✗ key org_\w+: DOCS_API_KEY holds an assistant or index key, not an admin key → fix: /);
    expect(line(r.lines, 'api demo')).toMatch(/^- api demo: not checked: fix the key first/);
    expect(sb.requestLog('mint_dsc_assistant_key').length).toBe(before);
  });

  it('an unknown project in a config: ✗ for it with the fix, ✓ for the others; one request per project', async () => {
    const config = join(tmp.dir, 'two.json');
    writeFileSync(config, JSON.stringify({ warehouse: join(tmp.dir, 'two', 'w.duckdb'), projects: [
      { id: 'demo', apiKeyEnv: 'ACME_KEY' }, { id: 'nope', apiKeyEnv: 'ACME_KEY' }, { id: 'docs', apiKeyEnv: 'BASIC_KEY' }] }));
    const before = analyticsRequests(KEY);
    const r = await doctor(['--config', config], { ACME_KEY: KEY, BASIC_KEY });
    expect(r.code).toBe(1);
    expect(line(r.lines, 'api demo')).toMatch(/^✓/);
    expect(line(r.lines, 'api nope')).toBe('✗ api nope: project "nope" was not found (404) → fix: copy the project id from the dashboard\'s API keys page');
    expect(line(r.lines, 'api docs')).toMatch(/^✓/);
    expect(analyticsRequests(KEY) - before).toBe(2);
    // The basic plan's organization: static export off is worth knowing, not a failure.
    expect(r.out).toContain(`! static-export ${keyFingerprint(BASIC_KEY)}: static export is not enabled for this organization (403) → fix: only \`docs-etl static-export\` needs it`);
    expect(r.out).toContain(`✓ static-export ${keyFingerprint(KEY)}: the plan allows static export`);
  });

  it('--json: one object with every check; an unset key variable is reported for its project', async () => {
    const config = join(tmp.dir, 'unset.json');
    writeFileSync(config, JSON.stringify({ warehouse: join(tmp.dir, 'unset', 'w.duckdb'), projects: [
      { id: 'demo', apiKeyEnv: 'ACME_KEY' }, { id: 'docs', apiKeyEnv: 'UNSET_DOCTOR_KEY' }] }));
    const r = await doctor(['--config', config, '--json'], { ACME_KEY: KEY });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as { ok: boolean; checks: { check: string; subject?: string; status: string; detail: string; fix?: string }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.check === 'config' && c.subject === 'docs')).toMatchObject({
      status: 'fail', detail: expect.stringMatching(/environment variable UNSET_DOCTOR_KEY .* is not set/) });
    expect(report.checks.find((c) => c.check === 'api' && c.subject === 'demo')).toMatchObject({ status: 'ok' });
    expect(report.checks.map((c) => c.check)).toEqual(expect.arrayContaining(['key', 'static-export', 'budget', 'warehouse', 'disk', 'versions', 'node']));
  });

  it('a used-up budget or a 429 block: ✗ without sending anything', async () => {
    const dir = join(tmp.dir, 'blocked');
    // The budget the user's syncs use: the per-user state folder.
    const state = join(dir, 'state');
    const log = new RequestLog(join(state, 'docs-etl', 'budget'), keyFingerprint(KEY));
    const now = Date.now();
    await log.update((s) => {
      s.blockedUntil = now + 30 * 60_000;
    });
    const before = analyticsRequests(KEY);
    const r = await doctor(['--warehouse', join(dir, 'w.duckdb')], { XDG_STATE_HOME: state });
    expect(r.code).toBe(1);
    expect(line(r.lines, 'api demo')).toMatch(/^✗ api demo: not checked: the rate budget is used up until \S+Z → fix: wait until then/);
    expect(line(r.lines, 'budget')).toMatch(/^✗ budget org_\w+: 0 of 100 requests used in the last 1h; blocked by a 429 until \S+Z → fix: /);
    expect(analyticsRequests(KEY)).toBe(before);
  });

  it('a warehouse another process holds: ✗ with its PID and the fix', async () => {
    const warehouse = join(tmp.dir, 'held', 'w.duckdb');
    const mod = fileURLToPath(new URL('../../dist/src/warehouse/warehouse.js', import.meta.url));
    const script = `const m = await import(${JSON.stringify(mod)}); const wh = await m.openWarehouse(${JSON.stringify(warehouse)});
      process.stdout.write('held\\n'); process.on('SIGTERM', () => { wh.close(); process.exit(0); }); setInterval(() => {}, 1000);`;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    holder.stdout.on('data', (d) => (out += d));
    try {
      await waitFor(() => out.includes('held'), 15_000);
      const r = await doctor(['--warehouse', warehouse]);
      expect(r.code).toBe(1);
      // Named by its PID and its command line (issue 19).
      const fix = `→ fix: another program (ps -p ${holder.pid}) has the warehouse file open, which stops every sync: close it, or point it at the read snapshot ${join(dirname(warehouse), 'read', 'w.duckdb')}`;
      expect(line(r.lines, 'warehouse').startsWith(`✗ warehouse ${warehouse}: held by another process (PID ${holder.pid}: ${process.execPath} --input-type=module -e `)).toBe(true);
      expect(line(r.lines, 'warehouse').endsWith(`) ${fix}`)).toBe(true);
    } finally {
      holder.kill('SIGTERM');
      await new Promise((resolve) => holder.on('close', resolve));
    }
  });

  it('a warehouse another program holds read-only (readers get in, a sync would not): ✗ naming the program', async () => {
    const warehouse = join(tmp.dir, 'held-ro', 'w.duckdb');
    (await openWarehouse(warehouse)).close();
    const holder = await holdDuckDb(warehouse, 'ro');
    try {
      const r = await doctor(['--warehouse', warehouse]);
      expect(r.code).toBe(1);
      expect(line(r.lines, 'warehouse')).toMatch(new RegExp(`^✗ warehouse .*: held by another process \\(PID ${holder.pid}: \\S*node \\S*duckdb-holder\\.mjs .*w\\.duckdb ro\\) → fix: another program \\(ps -p ${holder.pid}\\)`));
    } finally {
      await holder.close();
    }
    // Released: all good again.
    expect(line((await doctor(['--warehouse', warehouse])).lines, 'warehouse')).toMatch(/^✓ warehouse .*: opens; no other process holds it$/);
  });
});
