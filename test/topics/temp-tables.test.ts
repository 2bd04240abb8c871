// The topic step's temporary tables are declared once (src/outputs/topics/temp-tables.ts) and
// dropped from that declaration: every TEMP TABLE a topic SQL file or module creates must be in it,
// or a failed step would leave it holding the writer's pool.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { createTempTable, dropTempTables, TOPIC_TEMP_TABLES } from '../../src/outputs/topics/temp-tables.js';

function created(dir: string, ext: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(ext))
    .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/TEMP TABLE\s+([a-z_]+)\s*(?:\(|AS\b)/gi)].map((m) => m[1]!));
}

describe('topic temp tables', () => {
  it('declares every temporary table the topic SQL files and modules create', () => {
    const names = new Set([...created('sql/topics', '.sql'), ...created('src/outputs/topics', '.ts')]); // (temp-tables.ts itself creates them from the declaration)
    expect(names.size).toBeGreaterThan(5);
    expect([...names].filter((n) => !TOPIC_TEMP_TABLES.includes(n as never))).toEqual([]);
  });

  it('creates a declared table and drops them all', async () => {
    const wh = await openWarehouse(':memory:');
    try {
      await createTempTable(wh.conn, 'batch_placed');
      await wh.conn.run("INSERT INTO batch_placed VALUES ('1', 't_1', 'en', 0.5)");
      await dropTempTables(wh.conn);
      const left = (await wh.conn.runAndReadAll('SELECT table_name FROM duckdb_tables() WHERE temporary')).getRowObjectsJS().map((r) => String(r.table_name));
      expect(left.filter((t) => TOPIC_TEMP_TABLES.includes(t as never))).toEqual([]);
    } finally {
      wh.close();
    }
  });
});
