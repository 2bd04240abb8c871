// Time to write the documentation-gaps report of a warehouse (the last 30 days, every project):
// open read-only, query the views, render, write the file atomically; and the file's size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { writeReport } from '../../src/outputs/report/write-report.js';

export async function timeReport(warehouse: string): Promise<{ ms: number; bytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-etl-report-bench-'));
  try {
    const started = performance.now();
    const wh = await openWarehouse(warehouse, { readOnly: true });
    try {
      const r = await writeReport(wh.conn, join(dir, 'report.html'), { sinceMs: 30 * 86_400_000, now: new Date(), generator: 'docs-etl bench' });
      return { ms: performance.now() - started, bytes: r.bytes };
    } finally {
      wh.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
