// Rule 9's large record, measured where nothing else runs (the reliability suite runs its files one
// at a time): a page landed by an older docs-etl with one 20 MB record (over the 4 MiB record cap
// of fetch time; at --memory-limit 64MB DuckDB's JSON buffer could not hold it either) is repaired
// on upgrade: that record quarantined as at fetch, "record larger than 4 MiB", without a DuckDB
// try sized to it (its raw cut to its scalar fields), the other 59 load, exit 0, and the process
// stays within a 512 MiB container. Peak RSS alone: 438-441 MB when the repair tried the record
// in DuckDB, 293-295 MB since (DOCS_ETL_REPORT_PEAK=1 prints it); it depends on when V8 collects
// the page's garbage, which other processes' CPU load delays.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from './reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { landOld } from '../hostile/land-old.js';
import { expectBoundedMemory, filesUnder, hostileServer, json, oneWindow, page, runMeasured, turns, type Hostile } from '../hostile/hostile.js';

const KEY = 'mint_hostile_poison_key_99';
const tmp = tempDir('docs-etl-large-record-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

const env = (url: string) => ({ DOCS_API_BASE_URL: url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' });
const count = async (warehouse: string, table: string) => (await query(warehouse, `SELECT count(*)::INTEGER AS n FROM ${table}`))[0]!.n;

describe('rule 9: a record too large for the merge', () => {
  it('upgrade: a page with a record too large for the merge at the memory limit: that record quarantined as over the record cap, 59 load, exit 0', async () => {
    const empty = await hostileServer((_req, res) => json(res, 200, page([], null)));
    servers.push(empty);
    const dir = join(tmp.dir, 'large');
    const warehouse = join(dir, 'w.duckdb');
    const t = turns(60, 'l_');
    landOld(KEY, dir, 'assistant_conversations', 1, JSON.stringify(page([...t.slice(0, 5), { ...t[5], response: 'x'.repeat(20_000_000) }, ...t.slice(6)], null)), 60);
    // 64MB: DuckDB's JSON buffer for a 20 MB page does not fit (it did at 128MB for a page half that).
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--memory-limit', '64MB', ...oneWindow()], env(empty.url), join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect(await count(warehouse, 'conversations')).toBe(59);
    const q = await query(warehouse, "SELECT json_extract_string(raw, '$.id') AS id, error, json_extract(raw, '$._docs_etl_truncated')::BOOLEAN AS cut, length(raw::VARCHAR) AS bytes FROM quarantine");
    expect(q).toHaveLength(1);
    expect(q[0]).toMatchObject({ id: 'l_0005', cut: true });
    // Over the fetch-time record cap: refused as at fetch, without a DuckDB try sized to it.
    expect(q[0]!.error).toBe('record larger than 4 MiB');
    expect(Number(q[0]!.bytes)).toBeLessThan(10_000);
    expect(filesUnder(join(dir, 'landing')).filter((f) => f.endsWith('.json'))).toEqual([]);
    expectBoundedMemory(r);
    if (process.env.DOCS_ETL_REPORT_PEAK) process.stderr.write(`large-record peak RSS: ${Math.round(r.peakKb / 1024)} MB\n`);
  });

});
