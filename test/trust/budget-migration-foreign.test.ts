// Issue 33, item 2: the one-time move of an older `<warehouse dir>/budget` folder touches only its
// own files: an organization's log is named like keyFingerprint (`org_<16 hex>.json`) AND parses as
// a request log. A user's `marketing-2026.json`, a damaged org-named file and a foreign file that
// merely looks like JSON survive a real `sync` byte for byte; the real log beside them is moved.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/core/secrets.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_budget_foreign_key_3';
const ORG = keyFingerprint(KEY);
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir('docs-etl-budget-foreign-');
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 60, historyDays: 1, seed: 9 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

describe('the legacy budget migration', () => {
  it('moves only org_<16 hex>.json request logs; every other file in the folder survives a sync byte for byte', async () => {
    const state = join(tmp.dir, 'state');
    const warehouse = join(tmp.dir, 'wh', 'w.duckdb');
    const legacy = join(tmp.dir, 'wh', 'budget');
    mkdirSync(legacy, { recursive: true });
    const now = Date.now();
    const log = { entries: [{ id: '01LEGACYFOREIGN', start: now - 60_000, end: now - 59_000, pid: 1 }], blockedUntil: 0 };
    writeFileSync(join(legacy, `${ORG}.json`), JSON.stringify(log));
    const foreign: Record<string, string> = {
      // A user's file: valid JSON, even with an `entries` array, but not a request log.
      'marketing-2026.json': JSON.stringify({ campaign: 'spring', entries: [{ name: 'launch', budget: 1200 }] }, null, 2),
      // Named like an organization's log but damaged: not ours to empty or delete.
      'org_0123456789abcdef.json': '{"entries": [ {"start": 1, "pid": 2',
      // Named like a log of another naming scheme: left alone.
      'orgs.json': JSON.stringify({ entries: [], blockedUntil: 0 }),
    };
    for (const [name, text] of Object.entries(foreign)) writeFileSync(join(legacy, name), text);

    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', XDG_STATE_HOME: state });
    const run = await runCli(['sync', '--warehouse', warehouse], env);
    expect(run.code, run.stderr).toBe(0);

    for (const [name, text] of Object.entries(foreign)) expect(readFileSync(join(legacy, name), 'utf8'), name).toBe(text);
    // The real log was carried over and removed; the folder stays (it is not empty).
    expect(existsSync(join(legacy, `${ORG}.json`))).toBe(false);
    const moved = JSON.parse(readFileSync(join(state, 'docs-etl', 'budget', `${ORG}.json`), 'utf8')) as typeof log;
    expect(moved.entries.map((e) => e.id)).toContain('01LEGACYFOREIGN');
    expect(run.stderr).toContain('1 organization(s) carried over');
  });
});
