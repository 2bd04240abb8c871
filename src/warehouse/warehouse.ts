// Opening the DuckDB warehouse: one read-write process at a time (DuckDB's own file lock), the
// session in UTC, numbered migrations applied on open, views re-created from sql/views.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { FatalError, messageOf } from '../core/errors.js';
import { sqlFolder } from './sql-files.js';
import { commandLineOf, writerLockHolder } from './writer-lock.js';

export interface Warehouse {
  readonly path: string;
  readonly conn: DuckDBConnection;
  /** Another connection to the same database (its own transactions), in UTC. */
  connect(): Promise<DuckDBConnection>;
  close(): void;
}

export interface OpenOptions {
  readOnly?: boolean;
  /** DuckDB's memory_limit (e.g. '128MB') and threads; unset: DuckDB's defaults (readers). */
  memoryLimit?: string;
  threads?: number;
  /** Where readers should look instead (named in the "held by another program" message). */
  readPath?: string;
}


/**
 * How much WAL the writer lets grow before DuckDB checkpoints at a commit (DuckDB's default: 16MB).
 * A checkpoint compresses and writes what was committed since the last one, with buffers outside
 * the pool: during a backfill, 16MB meant one every 2-3 merge batches, and those batches made the
 * sync's memory peaks (a 1M-turn full sync as the container runs it peaked at 277-315 MB, at 268-279
 * MB with 64MB; 4MB: 365 MB; 256MB moves the peak to the final publish's checkpoint; docs/
 * performance.md, seventh round). The WAL on disk stays within this, and a crash replays at most
 * this much.
 */
export const WRITER_CHECKPOINT_THRESHOLD = '64MB';

export async function openWarehouse(path: string, opts: OpenOptions = {}): Promise<Warehouse> {
  const full = path === ':memory:' ? path : resolve(path);
  if (full !== ':memory:' && !opts.readOnly) mkdirSync(dirname(full), { recursive: true });
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(full, {
      ...(opts.readOnly ? { access_mode: 'READ_ONLY' } : {}),
      // The writer's bounds (sync, rebuild, reset and topics pass them; the checkpoint threshold comes
      // with them); a reader (a report, a query) keeps DuckDB's defaults.
      ...(opts.memoryLimit ? { memory_limit: opts.memoryLimit, checkpoint_threshold: WRITER_CHECKPOINT_THRESHOLD } : {}),
      ...(opts.threads ? { threads: String(opts.threads) } : {}),
      // Offline by design: parquet, json and icu are built in; never download an extension.
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'true',
    });
  } catch (err) {
    throw openError(full, err, opts.readPath);
  }
  const connections: DuckDBConnection[] = [];
  const connect = async () => {
    const c = await instance.connect();
    await c.run("SET TimeZone = 'UTC'");
    connections.push(c);
    return c;
  };
  const conn = await connect();
  const wh: Warehouse = {
    path: full,
    conn,
    connect,
    close: () => {
      for (const c of connections) c.closeSync();
      instance.closeSync();
    },
  };
  try {
    if (!opts.readOnly) await migrate(conn);
  } catch (err) {
    wh.close();
    // A truncated file opens, and fails only when a block past its end is read.
    if (DAMAGED.test(messageOf(err))) throw damagedError(full, messageOf(err));
    throw new FatalError(`cannot prepare warehouse ${full}: ${messageOf(err)}`);
  }
  return wh;
}

const DAMAGED = /not a valid DuckDB database|Corrupt|checksum|Could not read enough bytes/i;

/** A read that failed because the file is damaged becomes the same one line as at open; others pass through. */
export function explainReadError(path: string, err: unknown): unknown {
  return DAMAGED.test(messageOf(err)) ? damagedError(resolve(path), messageOf(err)) : err;
}

function damagedError(path: string, msg: string): FatalError {
  return new FatalError(`warehouse ${path} is damaged or not a DuckDB file: ${msg.split('\n')[0]}`);
}

/**
 * Whether a writer could open the file now: opens it read-write without migrating and closes it at
 * once. A program holding it read-only (a BI tool on the writer's file) lets readers in but stops
 * every sync; this names it (FatalError "held open by ..."). Call only when no docs-etl writer runs.
 */
export async function probeWriteLock(path: string): Promise<void> {
  const full = resolve(path);
  try {
    const instance = await DuckDBInstance.create(full, { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
    instance.closeSync();
  } catch (err) {
    throw openError(full, err);
  }
}

function openError(path: string, err: unknown, readPath?: string): FatalError {
  const msg = messageOf(err);
  const pid = /PID (\d+)/.exec(msg)?.[1];
  if (/lock/i.test(msg)) {
    // docs-etl's own writers are named by the writer lock before DuckDB is opened; this is someone else.
    const holder = writerLockHolder(path);
    if (holder && holder.pid !== process.pid) {
      return new FatalError(`warehouse ${path} is being written by another docs-etl process (PID ${holder.pid}, started ${holder.startedAt}); only one writer at a time`);
    }
    const cmd = pid ? commandLineOf(Number(pid)) : null;
    const who = pid ? `another program (PID ${pid}${cmd ? `: ${cmd}` : ''})` : 'another program';
    const hint = readPath ? `; point readers (BI tools, notebooks, the DuckDB CLI) at the read snapshot ${readPath} instead` : '';
    return new FatalError(`warehouse ${path} is held open by ${who}${hint}`);
  }
  if (/No such file|does not exist/i.test(msg)) return new FatalError(`warehouse ${path} does not exist yet: run \`docs-etl sync\` first`);
  if (DAMAGED.test(msg)) return damagedError(path, msg);
  return new FatalError(`cannot open warehouse ${path}: ${msg.split('\n')[0]}`);
}

/** Applies each sql/migrations file once, in order, each in its own transaction; then the views. */
export async function migrate(conn: DuckDBConnection): Promise<string[]> {
  await conn.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name VARCHAR PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const done = new Set(
    (await conn.runAndReadAll('SELECT name FROM schema_migrations')).getRowObjectsJS().map((r) => String(r.name)),
  );
  const applied: string[] = [];
  for (const m of sqlFolder('migrations')) {
    if (done.has(m.name)) continue;
    await conn.run('BEGIN TRANSACTION');
    try {
      await conn.run(m.sql);
      await conn.run('INSERT INTO schema_migrations (name) VALUES ($name)', { name: m.name });
      await conn.run('COMMIT');
    } catch (err) {
      await conn.run('ROLLBACK');
      throw new Error(`migration ${m.name} failed: ${messageOf(err)}`);
    }
    applied.push(m.name);
  }
  for (const v of sqlFolder('views')) await conn.run(v.sql);
  return applied;
}

/** Runs fn inside one transaction; rolls back on any error. */
export async function inTransaction<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  await conn.run('BEGIN TRANSACTION');
  try {
    const out = await fn();
    await conn.run('COMMIT');
    return out;
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => {});
    throw err;
  }
}
