// Issue 19, item 4: every command reads the same configuration as sync (warehouse, readPath,
// budgetDir, rateLimit), and relative paths in a config file resolve against the file's folder.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfigPaths } from '../../src/config/config-paths.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { spawn } from 'node:child_process';
import { BIN, cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_config_key_001';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir('docs-etl-config-');
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 200, historyDays: 2, seed: 4 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

describe('one configuration for every command', () => {
  it('status and query use the config file\'s warehouse, read path, budget folder and rate, relative to the file', async () => {
    const dir = join(tmp.dir, 'cfg');
    mkdirSync(dir);
    const file = join(dir, 'docs-etl.json');
    writeFileSync(file, JSON.stringify({
      warehouse: 'data/w.duckdb', readPath: 'published/w.duckdb', budgetDir: 'org-budget', rateLimit: '40/1h', baseUrl: sb.url,
      projects: [{ id: 'demo', apiKeyEnv: 'ACME_KEY' }],
    }));
    // Run from the repository root (the test's cwd): the paths still land beside the config file.
    const env = cliEnv({ ACME_KEY: KEY, LOG_LEVEL: 'warn' });
    const sync = await runCli(['sync', '--config', file], env);
    expect(sync.code, sync.stderr).toBe(0);
    expect(existsSync(join(dir, 'data', 'w.duckdb'))).toBe(true);
    expect(existsSync(join(dir, 'published', 'w.duckdb'))).toBe(true);
    expect(readdirSync(join(dir, 'org-budget')).some((f) => /^org_\w+\.json$/.test(f))).toBe(true);
    const used = sb.requestLog(KEY).length;

    const status = await runCli(['status', '--config', file], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`warehouse  ${join(dir, 'data', 'w.duckdb')}`);
    expect(status.stdout).toMatch(new RegExp(`budget org_\\w+: ${used}/40 per 1h`));

    const q = await runCli(['query', '--config', file, 'SELECT count(*) AS n FROM conversations'], env);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout).toBe(`n\r\n${sb.truth('demo').length}\r\n`);
  });
});

describe('config-relative paths', () => {
  it('resolve against the config file\'s folder; an existing working-directory file keeps being used, with a warning', () => {
    const cwd = join(tmp.dir, 'cwd');
    const cfgDir = join(tmp.dir, 'etc');
    mkdirSync(join(cwd, 'state'), { recursive: true });
    mkdirSync(cfgDir, { recursive: true });
    const config = join(cfgDir, 'c.json');
    // Nothing at either place: the config's folder, silently.
    const fresh = resolveConfigPaths({ warehouse: 'w.duckdb', budgetDir: '/abs/budget' }, config, cwd);
    expect(fresh).toEqual({ file: { warehouse: join(cfgDir, 'w.duckdb'), budgetDir: '/abs/budget' }, warnings: [] });
    // The warehouse an older version created under the working directory: still that one, said once.
    writeFileSync(join(cwd, 'state', 'w.duckdb'), '');
    const old = resolveConfigPaths({ warehouse: 'state/w.duckdb' }, config, cwd);
    expect(old.file.warehouse).toBe(join(cwd, 'state', 'w.duckdb'));
    expect(old.warnings).toEqual([expect.stringMatching(/warehouse "state\/w\.duckdb" is relative to the config file's folder .*exists only at .*: still using that one/)]);
    // Both exist: the config's folder wins, and the warning names the one left.
    mkdirSync(join(cfgDir, 'state'));
    writeFileSync(join(cfgDir, 'state', 'w.duckdb'), '');
    const both = resolveConfigPaths({ warehouse: 'state/w.duckdb' }, config, cwd);
    expect(both.file.warehouse).toBe(join(cfgDir, 'state', 'w.duckdb'));
    expect(both.warnings).toHaveLength(1);
  });
});

describe('rebuild and reset read the config like sync', () => {
  it('say once when a config-relative path changes which file is used', async () => {
    const cwd = join(tmp.dir, 'rr-cwd');
    const cfgDir = join(tmp.dir, 'rr-etc');
    mkdirSync(join(cwd, 'state'), { recursive: true });
    mkdirSync(cfgDir, { recursive: true });
    // A warehouse an older version created under the working directory (not synced: rebuild and
    // reset then stop on it, after the warning).
    writeFileSync(join(cwd, 'state', 'w.duckdb'), '');
    const config = join(cfgDir, 'c.json');
    writeFileSync(config, JSON.stringify({ warehouse: 'state/w.duckdb', projects: [{ id: 'demo', apiKeyEnv: 'ACME_KEY' }] }));
    for (const args of [['rebuild', '--config', config], ['reset', '--config', config, '--project', 'demo']]) {
      const r = await runCliIn(cwd, args, cliEnv({ LOG_LEVEL: 'warn' }));
      const lines = r.stderr.split('\n').filter((l) => l.includes('is relative to the config file\'s folder'));
      expect(lines, `${args[0]}: ${r.stderr}`).toEqual([
        `docs-etl: warning: config file ${config}: warehouse "state/w.duckdb" is relative to the config file's folder (${join(cfgDir, 'state', 'w.duckdb')}), but it exists only at ${join(cwd, 'state', 'w.duckdb')}: still using that one; move it there or give an absolute path`]);
    }
  });
});

function runCliIn(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stderr }));
  });
}
