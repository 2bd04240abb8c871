// rebuild (replays kept raw pages, no API call) and reset (forget, or read again from a date).
// Each test has its own warehouse: the rebuild test syncs with --keep-raw through the CLI; the others
// copy one synced in-process once (synced-base.ts: no kept pages), so no test depends on another.
// The rebuild test's sync and rebuild are real processes (exit code and stdout as a user sees them);
// the other commands run the CLI's main in-process (in-process-cli.ts: the same command and lines,
// without a Node start and DuckDB load each).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { copyBase, syncBase } from '../helpers/synced-base.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_rebuild_reset_key_5';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
/** A warehouse synced without --keep-raw: tests copy it (copyBase). */
let base: string;
beforeAll(async () => {
  tmp = tempDir();
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 1500, historyDays: 14, seed: 77, malformedRate: 0.01 }));
  base = await syncBase({ url: sb.url, key: KEY, projects: ['demo'] }, join(tmp.dir, 'base'));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = () => cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
const requests = () => sb.requestLog(KEY).length;

describe('rebuild', () => {
  it('re-creates the tables from kept pages with no API call, equal to the truth, quarantine complete', async () => {
    const warehouse = join(tmp.dir, 'rb', 'w.duckdb');
    const sync = await runCli(['sync', '--warehouse', warehouse, '--keep-raw', '30d'], env());
    expect(sync.code, sync.stderr).toBe(0);
    expect(existsSync(join(tmp.dir, 'rb', 'landing', 'w', 'kept'))).toBe(true);
    // A bug fix to replay: someone damaged the rows.
    const before = requests();
    const { openWarehouse } = await import('../../src/warehouse/warehouse.js');
    const wh = await openWarehouse(warehouse);
    await wh.conn.run("UPDATE conversations SET query = 'damaged'; DELETE FROM sources; DELETE FROM quarantine");
    wh.close();
    const r = await runCli(['rebuild', '--warehouse', warehouse, '--project', 'demo'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^demo\/assistant_conversations: replayed \d+ pages, [\d,]+ rows\n$/);
    expect(requests()).toBe(before);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    expect(await scalar(warehouse, 'SELECT count(*) FROM quarantine')).toBe(BigInt(sb.malformed('demo').length));
    // The snapshot readers open has the rebuilt data too.
    const q = await runMain(['query', '--warehouse', warehouse, "SELECT count(*) FROM conversations WHERE query = 'damaged'"], env());
    expect(q.stdout).toBe('count_star()\r\n0\r\n');
  });

  it('without kept pages: exit 2 saying how to keep them', async () => {
    const warehouse = await copyBase(base, join(tmp.dir, 'nokeep'), { surface: 'none' });
    const r = await runMain(['rebuild', '--warehouse', warehouse], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no kept pages in .*: sync with --keep-raw/);
  });
});

describe('reset', () => {
  it('asks for --yes without a terminal, then forgets the project; the next sync reads it all again', async () => {
    const warehouse = await copyBase(base, join(tmp.dir, 'rs'), { surface: 'none' });
    const refused = await runMain(['reset', '--warehouse', warehouse, '--project', 'demo'], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/would assistant_conversations: delete [\d,]+ rows, [\d,]+ days of event time covered, 0 landed pages: add --yes/);
    expect(await scalar(warehouse, 'SELECT count(*) FROM conversations')).toBe(BigInt(sb.truth('demo').length));
    const r = await runMain(['reset', '--warehouse', warehouse, '--project', 'demo', '--yes'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(await scalar(warehouse, 'SELECT count(*) FROM conversations')).toBe(0n);
    expect(await scalar(warehouse, 'SELECT count(*) FROM coverage')).toBe(0n);
    expect(await scalar(warehouse, "SELECT count(*) FROM sync_runs WHERE status = 'succeeded'")).toBe(1n);
    expect((await runMain(['sync', '--warehouse', warehouse], env())).code).toBe(0);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
  });

  it('--from reads that span again (a backfill in the next plan) and keeps the rows', async () => {
    const warehouse = await copyBase(base, join(tmp.dir, 'rs-from'), { surface: 'none' });
    const from = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const r = await runMain(['reset', '--warehouse', warehouse, '--project', 'demo', '--from', from, '--yes'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(await scalar(warehouse, 'SELECT count(*) FROM conversations')).toBe(BigInt(sb.truth('demo').length));
    const plan = await runMain(['sync', '--warehouse', warehouse, '--dry-run'], env());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/demo\s+assistant_conversations\s+backfill/);
    expect(plan.stdout).toContain(from);
  });

  it('an unknown project: exit 2, nothing changed', async () => {
    const warehouse = await copyBase(base, join(tmp.dir, 'rs-nope'), { surface: 'none' });
    const r = await runMain(['reset', '--warehouse', warehouse, '--project', 'nope', '--yes'], env());
    expect(r.code).toBe(2);
    expect(await scalar(warehouse, 'SELECT count(*) FROM conversations')).toBe(BigInt(sb.truth('demo').length));
    expect(r.stderr).toMatch(/project "nope" has nothing in .* to reset/);
  });
});
