// Writes a report file atomically (temporary file in the same directory, then rename): a browser,
// a static host or a crash sees the previous report or the new one, never half a file.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../../core/errors.js';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { buildReport, type BuiltReport, type ReportOptions } from './build-report.js';
import { bytes, count } from './format.js';

export interface WrittenReport extends BuiltReport {
  path: string;
  bytes: number;
  ms: number;
}

/** `--out` must name a file; its directory is created when missing. Checked before any work. */
export function checkReportPath(out: string, flag = '--out'): string {
  if (!out.trim()) throw new UsageError(`${flag} is empty: give a file path such as report.html`);
  const path = resolve(out);
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // absent: fine
  }
  if (isDir) throw new UsageError(`${flag} ${out} is a directory: give a file name such as ${out.replace(/\/+$/, '')}/report.html`);
  return path;
}

export async function writeReport(conn: DuckDBConnection, out: string, opts: ReportOptions): Promise<WrittenReport> {
  const started = performance.now();
  const path = checkReportPath(out);
  const built = await buildReport(conn, opts);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, built.html);
  return { ...built, path, bytes: Buffer.byteLength(built.html), ms: performance.now() - started };
}

/** One line for stdout: where, how big, what period, how many turns. */
export function reportSummary(r: WrittenReport): string {
  const who = r.data.projects.length ? r.data.projects.join(', ') : 'no project yet';
  return `report ${r.path}: ${who}, ${r.period.from} → ${r.period.to} (${r.period.timeZone}), ${count(r.data.current.turns)} turns; ${bytes(r.bytes)} in ${(r.ms / 1000).toFixed(1)}s`;
}
