// What the previous publish left at read_path, as the next publish must know it (issue 33 item 5).
// Only a catalog positively read decides which files are retired and when they may go: a reader
// holding an older catalog keeps its files for the grace period. Three outcomes:
//   - "read": a catalog of ours, its manifest parsed: its files are current or retired as it says;
//   - "none": nothing there, not a DuckDB file, or a DuckDB file without our manifest (a full copy
//     of the warehouse, the `copy` surface): no reader can hold files of it, leftovers may go;
//   - "unknown": a file we could not read (a reader holding it read-write, which is DuckDB's default
//     and takes the file's lock; an I/O error; a manifest we do not understand): it may name any
//     file of the parts folder, so every such file is kept (retired now, for the grace period) and
//     the publish warns, naming the holder.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { headerProblem } from '../../warehouse/warehouse-header.js';
import { commandLineOf } from '../../warehouse/writer-lock.js';
import { readCatalogManifest } from './catalog.js';
import { parseManifest, type SurfaceManifest } from './surface-manifest.js';

export type PreviousCatalog =
  | { kind: 'read'; manifest: SurfaceManifest }
  | { kind: 'none' }
  | { kind: 'unknown'; warning: string };

export async function readPreviousCatalog(conn: DuckDBConnection, readPath: string): Promise<PreviousCatalog> {
  if (!existsSync(readPath) || headerProblem(readPath) !== null) return { kind: 'none' };
  const r = await readCatalogManifest(conn, readPath);
  if ('error' in r) return { kind: 'unknown', warning: unreadableWarning(readPath, r.error) };
  if (r.manifest === null) return { kind: 'none' };
  const manifest = parseManifest(r.manifest);
  if (manifest) return { kind: 'read', manifest };
  return { kind: 'unknown', warning: `the previous read catalog ${resolve(readPath)} holds a manifest this version does not understand: its files are kept for the grace period` };
}

/** One line naming why the catalog could not be read and, for a lock, who holds it. */
function unreadableWarning(readPath: string, error: string): string {
  const pid = /PID (\d+)/.exec(error)?.[1];
  const keep = 'every file it may name is kept for the grace period (readGrace)';
  if (/lock/i.test(error)) {
    const cmd = pid ? commandLineOf(Number(pid)) : null;
    const who = pid ? `another program (PID ${pid}${cmd ? `: ${cmd}` : ''})` : 'another program';
    return `the previous read catalog ${resolve(readPath)} is held open read-write by ${who}: ${keep}; open the read snapshot read-only`;
  }
  return `the previous read catalog ${resolve(readPath)} could not be read (${error.split('\n')[0]}): ${keep}`;
}
