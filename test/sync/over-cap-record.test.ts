// Issue 33 item 7a: a record over the body cap among healthy ones. The page holding it is read again
// with half the limit, down to one record; that record alone is still over the cap, so it is
// quarantined by its size and the head of its text (never whole), and the stream moves past it:
// the healthy turns load, the run exits 0, and so does the next. Real CLI, the sandbox over HTTP
// (its `hugeRecordBytes` fault), real DuckDB; the cap lowered to 4 MiB (DOCS_ETL_MAX_PAGE_BYTES) so
// the record is 6 MiB rather than 40.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { query } from '../reliability/reliability-helpers.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_over_cap_record_key';
const CAP = 4 * 1024 * 1024;
const tmp = tempDir('docs-etl-over-cap-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

describe('a record over the body cap', () => {
  it('is quarantined by its size and head; the healthy records load; this run and the next exit 0', async () => {
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 3000, historyDays: 10, seed: 33, hugeRecordBytes: 6 * 1024 * 1024 }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const env = cliEnv({
      DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', DOCS_ETL_MAX_PAGE_BYTES: String(CAP),
    });
    const args = ['sync', '--warehouse', warehouse, '--rate-limit', '1000/1h', '--from', new Date(Date.now() - 11 * 86_400_000).toISOString(), '--max-window', '12d'];
    const first = await runCli(args, env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/page over the body cap: reading it again with a smaller limit/);

    const truth = sb.truth('demo');
    const counts = await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations');
    expect(counts[0]!.n).toBe(truth.length - 1);
    const q = await query(warehouse, `SELECT pipeline, error, CAST(raw AS VARCHAR) AS raw, raw->>'head' AS head, CAST(raw->>'bytes' AS BIGINT) AS bytes FROM quarantine`);
    expect(q).toHaveLength(1);
    const row = q[0]!;
    expect(row.pipeline).toBe('assistant_conversations');
    expect(String(row.error)).toMatch(/^a record larger than the 4 MiB cap \(DOCS_ETL_MAX_PAGE_BYTES\): its page of one record is \d+ bytes$/);
    expect(Number(row.bytes)).toBeGreaterThan(6 * 1024 * 1024);
    // The head of its raw text, bounded: the record's start (its id), never the 6 MiB.
    expect(String(row.head)).toMatch(/^\s*\{"id":/);
    expect(String(row.raw).length).toBeLessThan(10_000);
    // The record missing from the warehouse is the padded one.
    const missing = await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations WHERE length(response) > 1000000');
    expect(missing[0]!.n).toBe(0);

    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM quarantine'))[0]!.n).toBe(1);
  }, 180_000);
});
