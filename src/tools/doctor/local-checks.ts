// The doctor's checks that need no request: the key's format, the budget's use, who holds the
// warehouse, the disk space of the state folder, the versions of node, docs-etl and DuckDB, and
// whether Node runs with the launcher's memory settings.
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { RequestBudget } from '../../budget/budget.js';
import type { Clock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { FatalError, messageOf } from '../../core/errors.js';
import { MEMORY_ENV, MEMORY_NODE_COMMAND, MEMORY_SETTINGS, memorySettingsOn } from '../../core/node-flags.js';
import { openWarehouse, probeWriteLock } from '../../warehouse/warehouse.js';
import { writerLockHolder } from '../../warehouse/writer-lock.js';
import { defaultReadPath } from '../../sync/publish/snapshot.js';
import { fail, ok, warn, type CheckResult } from './check.js';
import { unsupportedNode } from './node-support.js';

const MiB = 1024 * 1024;
/** Below this the next sync may fail writing; below WARN_FREE a large backfill may. */
export const MIN_FREE_BYTES = 512 * MiB;
export const WARN_FREE_BYTES = 2048 * MiB;

/** Admin keys start with `mint_`; `mint_dsc_` (assistant) and `mint_us_` (index) keys cannot read analytics. */
export function checkKeyFormat(key: string, keySource: string, subject: string): CheckResult {
  const fix = `set ${keySource} to the organization's admin key (dashboard → API keys; it starts with mint_)`;
  if (/\s/.test(key)) return fail('key', `${keySource} contains whitespace (a copy-paste with a newline or space?)`, fix, { subject });
  if (/^mint_(dsc|us)_/.test(key)) return fail('key', `${keySource} holds an assistant or index key, not an admin key`, fix, { subject });
  if (!key.startsWith('mint_')) return fail('key', `${keySource} does not look like an admin key (it should start with mint_)`, fix, { subject });
  return ok('key', `${keySource} looks like an admin key`, { subject });
}

export function checkBudget(budget: RequestBudget, clock: Clock, subject: string): CheckResult {
  const u = budget.usage();
  const now = clock.now().getTime();
  const data = { used: u.used, limit: u.limit, windowMs: u.windowMs, blockedUntil: u.blockedUntil > now ? new Date(u.blockedUntil).toISOString() : null };
  const used = `${u.used} of ${u.limit} requests used in the last ${formatDuration(u.windowMs)}`;
  if (u.blockedUntil > now) {
    return fail('budget', `${used}; blocked by a 429 until ${new Date(u.blockedUntil).toISOString()}`,
      'wait until then (syncs wait by themselves); if it recurs, another client uses this organization\'s key', { subject, data });
  }
  if (u.used >= u.limit) return warn('budget', `${used}: none left right now`, 'a sync started now waits for budget or stops with exit 3', { subject, data });
  return ok('budget', used, { subject, data });
}

/** Opens the warehouse read-only: the DuckDB lock tells whether (and which PID) a writer holds it. */
export async function checkWarehouse(warehouse: string): Promise<CheckResult> {
  const path = resolve(warehouse);
  if (!existsSync(path)) {
    const dir = existingAncestor(dirname(path));
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      return fail('warehouse', `does not exist and ${dir} is not writable`, `make ${dir} writable, or choose another --warehouse`, { subject: path });
    }
    return ok('warehouse', 'does not exist yet: the first sync creates it', { subject: path });
  }
  const writer = writerLockHolder(path);
  if (writer) {
    return warn('warehouse', `being written by docs-etl (PID ${writer.pid}, started ${writer.startedAt}: ${writer.command})`,
      'a run is going: readers use the read snapshot meanwhile; a second sync would wait for nothing and exit 1', { subject: path, data: { pid: writer.pid } });
  }
  try {
    const wh = await openWarehouse(path, { readOnly: true });
    wh.close();
    // Readers share the file; a writer needs it alone: a program holding it read-only lets the
    // read-only open above in but stops every sync.
    await probeWriteLock(path);
    return ok('warehouse', 'opens; no other process holds it', { subject: path });
  } catch (err) {
    const msg = messageOf(err);
    const pid = /PID (\d+)/.exec(msg)?.[1];
    if (err instanceof FatalError && /held open by another program/.test(msg)) {
      const who = /held open by another program \(PID \d+: ([^)]*)\)/.exec(msg)?.[1];
      return fail('warehouse', `held by another process${pid ? ` (PID ${pid}${who ? `: ${who}` : ''})` : ''}`,
        `another program${pid ? ` (ps -p ${pid})` : ''} has the warehouse file open, which stops every sync: close it, or point it at the read snapshot ${defaultReadPath(path)}`,
        { subject: path, data: { pid: pid ? Number(pid) : null } });
    }
    return fail('warehouse', msg, 'move the file away (the next sync starts a new warehouse), or restore it from a backup', { subject: path });
  }
}

export function checkDisk(path: string): CheckResult {
  const dir = existingAncestor(dirname(resolve(path)));
  const s = statfsSync(dir);
  const free = Number(s.bavail) * Number(s.bsize);
  const data = { freeBytes: free, path: dir };
  const text = `${(free / 1024 ** 3).toFixed(1)} GiB free in ${dir}`;
  const fix = 'free some space, or put the warehouse (--warehouse) on a larger disk';
  if (free < MIN_FREE_BYTES) return fail('disk', text, fix, { data });
  if (free < WARN_FREE_BYTES) return warn('disk', `${text} (a large backfill may need more)`, fix, { data });
  return ok('disk', text, { data });
}

export async function checkVersions(docsEtlVersion: string, minNode: string): Promise<CheckResult> {
  const node = process.versions.node;
  const instance = await DuckDBInstance.create(':memory:');
  let duckdb = 'unknown';
  try {
    const conn = await instance.connect();
    duckdb = String((await conn.runAndReadAll('SELECT version()')).getRows()[0]?.[0]);
    conn.closeSync();
  } finally {
    instance.closeSync();
  }
  const data = { node, docsEtl: docsEtlVersion, duckdb };
  const text = `node ${node}, docs-etl ${docsEtlVersion}, DuckDB ${duckdb}`;
  const unsupported = unsupportedNode(node, minNode);
  if (unsupported) return fail('versions', `${text}: ${unsupported}`, `install Node ${minNode.split('.')[0]} LTS or later`, { data });
  return ok('versions', text, { data });
}

/**
 * `!` when this process runs without the launcher's memory settings (`node bin/docs-etl.js …`, or
 * a wrapper that calls node itself): worth knowing before a memory limit is hit, not wrong. It
 * reads this process's own flags and environment (what V8 and glibc read at start), not the
 * command's configured environment.
 */
export function checkNodeMemory(execArgv: readonly string[] = process.execArgv, env: NodeJS.ProcessEnv = process.env): CheckResult {
  const data = { execArgv: [...execArgv], memoryEnv: Object.fromEntries(Object.keys(MEMORY_ENV).map((k) => [k, env[k] ?? null])), memorySettings: memorySettingsOn(execArgv, env) };
  if (data.memorySettings) return ok('node', `runs with the launcher's memory settings (${MEMORY_SETTINGS})`, { data });
  return warn('node', `runs without ${MEMORY_SETTINGS}: a full sync's peak memory is about a third higher (docs/sync.md, Memory and threads)`,
    `start the installed \`docs-etl\` (its launcher sets them), or \`${MEMORY_NODE_COMMAND} <path to>/bin/docs-etl.js …\``, { data });
}

function existingAncestor(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}
