// The DuckDB `docs-etl query` runs users' SQL in (issue 23): read-only in fact, not only by
// statement type.
//  - It opens the published read snapshot only; before the first publish there is none, and the
//    writer's file is never opened instead (a sync starting meanwhile would fail on its lock).
//  - External access is off: no file but the snapshot itself and the read catalog's own Parquet
//    folder (<read_path>.parts, which its views read; allowed_directories) is read or written
//    (read_text, glob, read_csv, COPY, EXPORT, log_query_path, profiling_output: DuckDB's
//    "Permission Error"). Writes into that folder are refused by statement type (run-query.ts:
//    a SELECT cannot write a file, COPY is not on the allow-list).
//  - The configuration is locked after the reader's own settings (time zone, threads, a bounded
//    memory limit, given by flags): `SET memory_limit = '100GB'` and the like are refused.
//  - A running statement is interrupted (DuckDB's interrupt) on Ctrl-C or SIGTERM, and after
//    `--timeout`.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { quotedString } from '../../core/sql-quoting.js';
import { MEMORY_SIZE, memorySizeBytes } from '../../core/memory-size.js';
import { FatalError, UsageError, messageOf } from '../../core/errors.js';
import { readSurfaceDir } from '../../sync/publish/surface-files.js';

/** Default memory limit of a query (DuckDB's own default is 80% of RAM). */
export const QUERY_MEMORY_LIMIT = '1GB';
/** The largest memory limit `--memory-limit` accepts. */
export const QUERY_MEMORY_MAX_BYTES = 16 * 1024 ** 3;
export const QUERY_THREADS = 2;
/** Default `--timeout`. */
export const QUERY_TIMEOUT_MS = 5 * 60_000;

export interface QueryReaderOptions {
  warehouse: string;
  readPath: string;
  memoryLimit?: string;
  threads?: number;
  timeZone?: string;
}

export interface QueryReader {
  conn: DuckDBConnection;
  path: string;
  /** Stops the running statement (it fails with DuckDB's "Interrupted"). */
  interrupt(): void;
  close(): void;
}

export async function openQueryReader(o: QueryReaderOptions): Promise<QueryReader> {
  const path = resolve(o.readPath);
  if (!existsSync(path)) {
    if (!existsSync(o.warehouse)) throw new FatalError(`warehouse ${resolve(o.warehouse)} does not exist yet: run \`docs-etl sync\` first`);
    throw new FatalError(`no read snapshot yet: the first sync publishes it (${path})`);
  }
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, {
      access_mode: 'READ_ONLY',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      memory_limit: o.memoryLimit ?? QUERY_MEMORY_LIMIT,
      threads: String(o.threads ?? QUERY_THREADS),
    });
  } catch (err) {
    throw new FatalError(`cannot open the read snapshot ${path}: ${messageOf(err).split('\n')[0]}`);
  }
  const conn = await instance.connect();
  try {
    // The catalog's views read its parts folder: the one directory allowed once external access is off.
    await conn.run(`SET allowed_directories = [${quotedString(`${readSurfaceDir(path)}/`)}]`);
    await conn.run('SET enable_external_access = false');
  } catch (err) {
    conn.closeSync();
    instance.closeSync();
    throw new FatalError(`cannot open the read snapshot ${path} read-only: ${messageOf(err).split('\n')[0]}`);
  }
  try {
    await conn.run('SET TimeZone = $tz', { tz: o.timeZone ?? 'UTC' });
  } catch (err) {
    conn.closeSync();
    instance.closeSync();
    throw new UsageError(`--time-zone: ${messageOf(err).split('\n')[0]}`);
  }
  // Last: nothing after this changes the configuration (SET, RESET, PRAGMA of a setting).
  await conn.run('SET lock_configuration = true');
  return {
    conn, path,
    interrupt: () => conn.interrupt(),
    close: () => {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

/** `--memory-limit` of query: a size up to QUERY_MEMORY_MAX_BYTES (16 GiB). */
export function parseQueryMemory(v: string): string {
  const m = MEMORY_SIZE.exec(v.trim());
  const bytes = memorySizeBytes(v);
  if (!m || bytes === null) throw new UsageError(`expected a size such as 256MB or 2GB, got "${v}"`);
  if (bytes > QUERY_MEMORY_MAX_BYTES) throw new UsageError(`at most 16GiB, got ${v.trim()}`);
  return `${m[1]}${m[2]}`;
}
