// Rule 5: a record that cannot be loaded goes to quarantine with the reason, and the valid records
// of the same page load: a date that does not exist (2026-02-30, which Date.parse rolls over and
// DuckDB refuses), a record nested 5,000 levels deep, a record whose extra field is that deep.
// Real CLI, hostile server on 127.0.0.1.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { expectBoundedMemory, expectKeyAbsent, hostileServer, oneWindow, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_records_key_55';
const tmp = tempDir('docs-etl-hostile-5-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

/** JSON text nested `depth` levels (built as text: JSON.stringify itself would overflow). */
const deep = (depth: number) => `${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('rule 5: any record that cannot be loaded goes to quarantine', () => {
  it('sync: impossible dates and records nested 5,000 deep are quarantined with their reason; the rest loads; exit 0', async () => {
    const good = turns(20, 'ok_');
    const [badDate, deepRecord, deepExtra] = turns(3, 'bad_');
    const body = `{"conversations":[${[
      ...good.map((t) => JSON.stringify(t)),
      JSON.stringify({ ...badDate, timestamp: '2026-02-30T10:00:00Z' }),
      JSON.stringify({ ...deepRecord, sources: [] }).replace('"sources":[]', `"sources":${'['.repeat(5000)}${']'.repeat(5000)}`),
      JSON.stringify(deepExtra).replace(/}$/, `,"debug":${deep(5000)}}`),
    ].join(',')}],"nextCursor":null,"hasMore":false}`;
    const s = await hostileServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    servers.push(s);
    const dir = join(tmp.dir, 'poison');
    const warehouse = join(dir, 'w.duckdb');
    const env = { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' };
    const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], env, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/20 rows merged, 3 quarantined/);
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations'))[0]!.n).toBe(20);
    const q = await query(warehouse, "SELECT json_extract_string(raw, '$.id') AS id, error FROM quarantine ORDER BY id");
    expect(q.map((x) => x.id)).toEqual(['bad_0000', 'bad_0001', 'bad_0002']);
    expect(q[0]!.error).toMatch(/timestamp: timestamp is not a date that exists/);
    expect(q[1]!.error).toMatch(/record nested deeper than 32 levels/);
    expect(q[2]!.error).toMatch(/record nested deeper than 32 levels/);
    // A second run re-reads the page (head overlap) and quarantines nothing twice.
    const again = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], env, join(dir, 'peak2'));
    expect(again.code, again.stderr).toBe(0);
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM quarantine'))[0]!.n).toBe(3);
    expectBoundedMemory(r);
    expectKeyAbsent(KEY, r, [dir]);
  });
});
