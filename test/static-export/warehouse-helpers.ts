// Reading the warehouse back in tests, and listing every file a run left behind.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBValue } from '@duckdb/node-api';
import { openWarehouse } from '../../src/warehouse/warehouse.js';

/** Rows as JSON-friendly objects (BIGINT and timestamps as strings, INTEGER/DOUBLE as numbers). */
export async function query(path: string, sql: string, params: Record<string, DuckDBValue> = {}): Promise<Record<string, unknown>[]> {
  const wh = await openWarehouse(path);
  try {
    return (await wh.conn.runAndReadAll(sql, params)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    wh.close();
  }
}

export function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...allFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}
