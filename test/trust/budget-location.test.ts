// Issue 19, item 6: one budget per organization per machine user. The request log lives in the
// per-user state folder by default (DOCS_ETL_BUDGET_DIR > config budgetDir > $XDG_STATE_HOME >
// ~/.local/state), so two warehouses of one organization share it; an older `<warehouse dir>/budget`
// is merged in once, with one warning, never lost and never counted twice.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseBudgetDir } from '../../src/config/budget-dir.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_budget_home_key_7';
const ORG = keyFingerprint(KEY);
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir('docs-etl-budget-home-');
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 120, historyDays: 2, seed: 5 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

interface Log { entries: { id: string; start: number }[]; blockedUntil: number }
const readLog = (dir: string): Log => JSON.parse(readFileSync(join(dir, `${ORG}.json`), 'utf8')) as Log;

describe('where the budget lives', () => {
  it('DOCS_ETL_BUDGET_DIR wins, then config budgetDir, then $XDG_STATE_HOME, then ~/.local/state', () => {
    const w = '/srv/a/w.duckdb';
    expect(chooseBudgetDir({ DOCS_ETL_BUDGET_DIR: '/e', XDG_STATE_HOME: '/x', HOME: '/h' }, '/c', w)).toEqual({ dir: '/e', source: 'DOCS_ETL_BUDGET_DIR', legacyDir: null });
    expect(chooseBudgetDir({ XDG_STATE_HOME: '/x', HOME: '/h' }, '/c', w)).toEqual({ dir: '/c', source: 'config budgetDir', legacyDir: null });
    expect(chooseBudgetDir({ XDG_STATE_HOME: '/x', HOME: '/h' }, undefined, w)).toEqual({ dir: '/x/docs-etl/budget', source: 'default', legacyDir: '/srv/a/budget' });
    // A relative XDG_STATE_HOME is invalid per the XDG spec: ignored.
    expect(chooseBudgetDir({ XDG_STATE_HOME: 'rel', HOME: '/h' }, undefined, w).dir).toBe('/h/.local/state/docs-etl/budget');
  });

  it('two warehouses of one organization in different folders share one request log in the state folder', async () => {
    const state = join(tmp.dir, 'shared-state');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', XDG_STATE_HOME: state });
    const budget = join(state, 'docs-etl', 'budget');
    const a = join(tmp.dir, 'team-a', 'w.duckdb');
    const b = join(tmp.dir, 'team-b', 'w.duckdb');
    const before = sb.requestLog(KEY).length;
    const first = await runCli(['sync', '--warehouse', a], env);
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(['sync', '--warehouse', b], env);
    expect(second.code, second.stderr).toBe(0);
    const spent = sb.requestLog(KEY).length - before;
    expect(spent).toBeGreaterThan(2);
    expect(readLog(budget).entries).toHaveLength(spent);
    expect(existsSync(join(tmp.dir, 'team-a', 'budget'))).toBe(false);
    expect(existsSync(join(tmp.dir, 'team-b', 'budget'))).toBe(false);
    // status of either warehouse counts both warehouses' requests.
    const status = await runCli(['status', '--warehouse', a], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`${spent}/100 per 1h`);
  });

  it('an older <warehouse dir>/budget is merged once with one warning: nothing lost, nothing counted twice', async () => {
    const state = join(tmp.dir, 'migrate-state');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', XDG_STATE_HOME: state });
    const budget = join(state, 'docs-etl', 'budget');
    const warehouse = join(tmp.dir, 'old', 'w.duckdb');
    const first = await runCli(['sync', '--warehouse', warehouse], env);
    expect(first.code, first.stderr).toBe(0);
    const synced = readLog(budget).entries;

    // An older version's log beside the warehouse: 5 requests of the last minutes, one of them
    // (same id) already in the new log, and a 429 block.
    const now = Date.now();
    const legacy = join(tmp.dir, 'old', 'budget');
    mkdirSync(legacy);
    const old = [0, 1, 2, 3].map((i) => ({ id: `01LEGACY${i}`, start: now - 60_000 * (i + 1), end: now - 60_000 * (i + 1) + 50, pid: 1 }));
    writeFileSync(join(legacy, `${ORG}.json`), JSON.stringify({ entries: [...old, synced[0]], blockedUntil: now + 600_000 }));

    const status = await runCli(['status', '--warehouse', warehouse], env);
    expect(status.code, status.stderr).toBe(0);
    const warnings = status.stderr.split('\n').filter((l) => l.includes('request log moved'));
    expect(warnings).toEqual([`docs-etl: warning: the request log moved from ${legacy} to ${budget} (one budget per organization for this user; 4 request(s) of 1 organization(s) carried over): set DOCS_ETL_BUDGET_DIR or the config's budgetDir to choose another folder`]);
    const merged = readLog(budget);
    expect(merged.entries).toHaveLength(synced.length + 4);
    expect(merged.entries.map((e) => e.id)).toEqual(expect.arrayContaining(old.map((e) => e.id)));
    expect(merged.blockedUntil).toBe(now + 600_000);
    expect(existsSync(legacy)).toBe(false);
    expect(status.stdout).toContain(`${synced.length + 4}/100 per 1h`);
    expect(status.stdout).toMatch(/blocked/i);

    // Again: nothing left to move, no warning, the same count.
    const again = await runCli(['status', '--warehouse', warehouse], env);
    expect(again.stderr).not.toContain('request log moved');
    expect(readLog(budget).entries).toHaveLength(synced.length + 4);
  });
});
