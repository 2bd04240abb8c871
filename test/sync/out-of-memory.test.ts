// A sync whose DuckDB memory_limit is too small for its merge (issue 20): one clear line naming
// the setting to raise, exit 1, no stack trace, no retry storm of repairs; the pages stay landed
// and the next run at the default limit completes with every turn. Real processes (the built CLI),
// the sandbox over real HTTP, real DuckDB files.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_out_of_memory_key_20';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir();
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 4000, seed: 20 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = () => cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' });
const landed = (dir: string) =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith('.json')).length : 0;

describe('sync at a memory limit too small for the merge', () => {
  it('stops with one line naming --memory-limit (exit 1, no stack trace); the next run at the default limit completes', async () => {
    const dir = join(tmp.dir, 'oom');
    const warehouse = join(dir, 'w.duckdb');
    // 24MB: DuckDB's JSON reader cannot allocate its buffers for a batch of 1,000-turn pages.
    const small = await runCli(['sync', '--warehouse', warehouse, '--memory-limit', '24MB'], env());
    expect(small.code, small.stderr).toBe(1);
    const errors = small.stderr.split('\n').filter((l) => l.startsWith('docs-etl: error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^docs-etl: error: demo: DuckDB ran out of memory while merging landed pages: Out of Memory Error: .*; raise --memory-limit or memoryLimit in the config \(now 24MB\); nothing is lost/);
    expect(small.stderr).not.toMatch(/^\s+at /m);
    // Not the records' fault: nothing quarantined, no page repaired by bisection.
    expect(small.stdout).toMatch(/demo\/assistant_conversations: failed .* 0 quarantined/);
    expect(small.stderr).not.toContain('could not find which records');
    expect(landed(join(dir, 'landing'))).toBeGreaterThan(0);

    const normal = await runCli(['sync', '--warehouse', warehouse], env());
    expect(normal.code, normal.stderr).toBe(0);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    expect(landed(join(dir, 'landing'))).toBe(0);
  }, 180_000);
});
