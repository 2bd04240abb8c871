// The files a demo owns, and the rule that keeps it harmless: it deletes only what an earlier demo
// created (a marker file says so), unless --force. Everything sits beside the demo's warehouse
// (default state/demo/), never in the real warehouse's folder or its request log (state/budget).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';

export const DEFAULT_DEMO_WAREHOUSE = 'state/demo/warehouse.duckdb';
const MARKER = 'docs-etl demo';

export interface DemoFiles {
  warehouse: string;
  wal: string;
  /** The demo's own request log (the sandbox is new each time, so is its budget). */
  budgetDir: string;
  /** Its landing zone, read snapshot, writer lock and HTML report. */
  landingDir: string;
  readPath: string;
  lock: string;
  report: string;
  /** Written before anything else: its presence says the demo created the files above. */
  marker: string;
}

export function demoFiles(warehouse: string): DemoFiles {
  const w = resolve(warehouse);
  return {
    warehouse: w, wal: `${w}.wal`, budgetDir: `${w}.demo-budget`, marker: `${w}.demo.json`,
    landingDir: `${w}.demo-landing`, readPath: `${w}.demo-read.duckdb`, lock: `${w}.lock`,
    report: `${w}.demo-report.html`,
  };
}

function createdByDemo(marker: string): boolean {
  try {
    return (JSON.parse(readFileSync(marker, 'utf8')) as { createdBy?: unknown }).createdBy === MARKER;
  } catch {
    return false;
  }
}

/**
 * Makes room for a fresh demo warehouse. Files a demo made (its marker is there) are deleted; a file
 * it did not make stops the demo with exit 2, unless `force`. Returns the paths deleted.
 */
export function prepareDemoFiles(files: DemoFiles, opts: { force: boolean; now: Date }): string[] {
  const present = [files.warehouse, files.wal, files.budgetDir, files.landingDir, files.readPath, files.lock, files.report].filter((p) => existsSync(p));
  if (present.length && !opts.force && !createdByDemo(files.marker)) {
    throw new UsageError(`${present[0]} was not created by the demo (no ${files.marker}): choose another --warehouse, or pass --force to delete it`);
  }
  for (const p of [files.warehouse, files.wal]) {
    if (existsSync(p) && statSync(p).isDirectory()) throw new UsageError(`${p} is a directory, not a warehouse file: choose another --warehouse`);
  }
  for (const p of present) rmSync(p, { recursive: p === files.budgetDir || p === files.landingDir, force: true });
  mkdirSync(dirname(files.warehouse), { recursive: true });
  writeFileSync(files.marker, `${JSON.stringify({ createdBy: MARKER, warehouse: files.warehouse, createdAt: opts.now.toISOString() })}\n`);
  return present;
}
