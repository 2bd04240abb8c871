// A reader that goes away early (`docs-etl query … | head`) closes the pipe under a command still
// writing: the command ends quietly, exit 0 and nothing on stderr, never "unsettled top-level
// await" (exit 13) or a stack trace. Real processes, a real pipe closed after the first bytes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filledWarehouseFile } from '../lake/lake-fixture.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { publishForReaders } from '../helpers/publish.js';

let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
beforeAll(async () => {
  tmp = tempDir('docs-etl-closed-pipe-');
  warehouse = join(tmp.dir, 'w.duckdb');
  await filledWarehouseFile(warehouse, { days: 2, turnsPerDay: 3 });
  await publishForReaders(warehouse);
});
afterAll(() => tmp.cleanup());

/** Runs the CLI, reads its first chunk of stdout, then closes the pipe (as `head -c` does). */
async function closedAfterFirstChunk(args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string; first: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv({ LOG_LEVEL: 'warn' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let first = '';
  child.stdout.once('data', (d: Buffer) => {
    first = d.toString('utf8');
    child.stdout.destroy();
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  return { code, signal, stderr, first };
}

// Far more than a pipe's buffer (64 KiB): the command is still writing when the reader leaves.
const BIG = 'select range as i, repeat(\'x\', 50) as pad from range(400000)';

describe('a reader closing the pipe early', () => {
  it.each([['csv'], ['json'], ['table']])('query --format %s ends quietly with exit 0', async (format) => {
    // --timeout ends a query stuck on a closed pipe (the bug: exit 13 once nothing else keeps it alive).
    const r = await closedAfterFirstChunk(['query', '--warehouse', warehouse, '--format', format, '--timeout', '20s', BIG]);
    expect(r.first.length).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
  }, 60_000);

  it('status --json ends quietly with exit 0', async () => {
    const r = await closedAfterFirstChunk(['status', '--json', '--warehouse', warehouse]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
