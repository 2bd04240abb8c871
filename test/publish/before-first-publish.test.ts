// Readers before the first publish (issue 23, A): status, report, export-parquet and topics never
// open the writer's file when no read snapshot exists: one line "no read snapshot yet" and exit 1
// (status: what it can say without the file, exit 0; --check exit 1), and a sync started while
// they run is never stopped by them. Real processes, real HTTP, real DuckDB files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli, type CliResult } from '../helpers/cli.js';
import { holdDuckDb } from '../helpers/holder.js';
import { runMain } from '../helpers/in-process-cli.js';
import { smallSandboxOptions } from '../helpers/small-sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_first_publish_key_01';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir('docs-etl-first-publish-');
  // Latency: the first sync takes a few seconds, so readers run before its publish. A small history
  // (small-sandbox.ts): the readers' race with the first publish is the point, not its volume.
  sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], conversations: 200, seed: 9, latencyMs: 100 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = () => cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
const noSnapshot = (warehouse: string) =>
  `docs-etl: error: no read snapshot yet: the first sync publishes it (${join(warehouse, '..', 'read', 'w.duckdb')})\n`;
const readers = (warehouse: string, dir: string): [string, string[]][] => [
  ['report', ['report', '--out', join(dir, 'r.html'), '--warehouse', warehouse]],
  ['export-parquet', ['export-parquet', '--out', join(dir, 'lake'), '--warehouse', warehouse]],
  ['topics', ['topics', '--warehouse', warehouse]],
];

describe('readers before the first publish', () => {
  it('never open the writer file: one line and exit 1, status says what it can (the file held by a writer meanwhile)', async () => {
    const dir = join(tmp.dir, 'held');
    const warehouse = join(dir, 'w.duckdb');
    (await openWarehouse(warehouse)).close();
    // A writer holds the file: a reader that opened it would get "held open by another program".
    const writer = await holdDuckDb(warehouse, 'rw');
    try {
      const results = await Promise.all(readers(warehouse, dir).map(async ([name, args]) => [name, await runCli(args, env())] as const));
      for (const [name, r] of results) {
        expect(r.code, name).toBe(1);
        expect(r.stderr, name).toBe(noSnapshot(warehouse));
      }
      expect(existsSync(join(dir, 'r.html'))).toBe(false);
      expect(existsSync(join(dir, 'lake'))).toBe(false);

      const status = await runCli(['status', '--warehouse', warehouse], env());
      expect(status.code, status.stderr).toBe(0);
      expect(status.stderr).toBe('');
      expect(status.stdout).toContain(`read_path  ${join(dir, 'read', 'w.duckdb')}  (no read snapshot yet: the first sync publishes it)`);
      expect(status.stdout).toContain('sync       none running');
      // The other two forms in this process (the report is the command's; a real process's above).
      const json = await runMain(['status', '--json', '--warehouse', warehouse], env());
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ warehouse, read_path: join(dir, 'read', 'w.duckdb'), published: false, sync_running: null, streams: [] });
      const check = await runMain(['status', '--check', '--warehouse', warehouse], env());
      expect(check.code).toBe(1);
      expect(check.stdout).toBe('unhealthy: no read snapshot yet: the first sync publishes it\n');
      // The writer's handle is undisturbed.
      expect(await writer.query('SELECT count(*)::INTEGER AS n FROM conversations')).toEqual([{ n: 0 }]);
    } finally {
      await writer.close();
    }
  }, 60_000);

  it('a first sync started while readers keep running completes (exit 0); readers then see its snapshot', async () => {
    const dir = join(tmp.dir, 'race');
    const warehouse = join(dir, 'w.duckdb');
    const sync = spawnCli(['sync', '--warehouse', warehouse], env());
    const ended: { result: CliResult | null } = { result: null };
    void sync.result.then((r) => (ended.result = r));
    const seen: { name: string; r: CliResult }[] = [];
    // Readers back to back until the sync ends, each one a real process, as a cron or a dashboard
    // runs them: two lanes, status in one, the other readers in turn in the other (a crowd of them at
    // once would only starve the sync of the machine's cores and make it take longer).
    const lane = async (commands: [string, string[]][]) => {
      for (let i = 0; !ended.result; i++) {
        const [name, args] = commands[i % commands.length]!;
        seen.push({ name, r: await runCli(args, env()) });
      }
    };
    await Promise.all([lane([['status', ['status', '--warehouse', warehouse]]]), lane(readers(warehouse, dir))]);
    const r = await sync.result;
    expect(r.code, r.stderr).toBe(0);
    // Some readers ran before the publish: each said so in one line (status: a sync is running).
    const before = seen.filter((s) => s.r.stderr.includes('no read snapshot yet') || s.r.stdout.includes('no read snapshot yet'));
    expect(before.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.r.stderr, s.name).not.toMatch(/held open|being written|Error:|\n {4}at /);
      // A reader that ran before the sync took its lock (nothing exists yet) is told so; after, the snapshot is missing.
      const notYet = `docs-etl: error: warehouse ${warehouse} does not exist yet: run \`docs-etl sync\` first\n`;
      if (s.name !== 'status' && s.r.code !== 0) expect([noSnapshot(warehouse), notYet], s.name).toContain(s.r.stderr);
    }
    expect(seen.some((s) => s.name === 'status' && new RegExp(`sync {7}running: PID ${sync.pid}`).test(s.r.stdout))).toBe(true);
    // After it: every reader works from the snapshot.
    const status = await runCli(['status', '--warehouse', warehouse], env());
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/demo\s+assistant_conversations/);
    const report = await runCli(['report', '--out', join(dir, 'r.html'), '--warehouse', warehouse], env());
    expect(report.code, report.stderr).toBe(0);
  }, 120_000);
});
