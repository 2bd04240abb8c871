// Shared by the reliability suite: quarantine comparison, file fingerprints, warehouse queries.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openWarehouse } from '../../src/warehouse/warehouse.js';

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Canonical form of JSON records (key order kept), sorted: two multisets compare equal with toEqual. */
export function canonicalRecords(records: unknown[]): string[] {
  return records.map((r) => JSON.stringify(r)).sort();
}

/** The raw records in the warehouse's quarantine, canonical and sorted. */
export async function quarantinedRecords(warehouse: string): Promise<string[]> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const rows = (await wh.conn.runAndReadAll('SELECT CAST(raw AS VARCHAR) AS raw FROM quarantine')).getRowObjectsJS();
    return canonicalRecords(rows.map((r) => JSON.parse(String(r.raw)) as unknown));
  } finally {
    wh.close();
  }
}

/** Rows of a query, as plain JS objects. */
export async function query(warehouse: string, sql: string): Promise<Record<string, unknown>[]> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return (await wh.conn.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    wh.close();
  }
}

/** A statement against the warehouse (to damage it on purpose). */
export async function execute(warehouse: string, sql: string): Promise<void> {
  const wh = await openWarehouse(warehouse);
  try {
    await wh.conn.run(sql);
  } finally {
    wh.close();
  }
}
