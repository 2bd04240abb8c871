// Rule 12: leftovers are swept. A publish that was killed leaves a full-size temporary copy of the
// read snapshot: the next publish removes it (and nothing else). A writer lock left by a process
// that exited but was not reaped yet (a zombie, which still answers kill(pid, 0)) is stale: the
// next writer takes it at once. Real processes, real files.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLakeLock } from '../../src/outputs/lake/lake-lock.js';
import { acquireWriterLock } from '../../src/warehouse/writer-lock.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { publishSnapshot } from '../../src/sync/publish/snapshot.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const tmp = tempDir('docs-etl-hostile-12-');
const killers: (() => void)[] = [];
afterAll(() => {
  for (const k of killers) k();
  tmp.cleanup();
});

const state = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
};

describe('rule 12: leftovers are swept', () => {
  it('the next publish removes the temporary copies a killed publish left, and only those', async () => {
    const warehouse = join(tmp.dir, 'pub', 'w.duckdb');
    const target = join(tmp.dir, 'pub', 'read', 'w.duckdb');
    const wh = await openWarehouse(warehouse);
    try {
      await publishSnapshot(wh.conn, warehouse, target);
      // What two killed publishes left (full-size copies), and files that are not theirs.
      const stale = ['.w.duckdb.0123456789ab.tmp', '.w.duckdb.ba9876543210.tmp'];
      for (const name of stale) writeFileSync(join(tmp.dir, 'pub', 'read', name), readFileSync(target));
      const others = ['.other.duckdb.0123456789ab.tmp', 'notes.txt'];
      for (const name of others) writeFileSync(join(tmp.dir, 'pub', 'read', name), 'keep');
      await publishSnapshot(wh.conn, warehouse, target);
      expect(readdirSync(join(tmp.dir, 'pub', 'read')).sort()).toEqual([...others, 'w.duckdb'].sort());
    } finally {
      wh.close();
    }
  });

  it('a writer lock held by a zombie (exited, not reaped) is taken at once', async () => {
    // `sleep 0.2 &` then exec: the new parent (sleep 30) never reaps it, so it stays a zombie.
    const parent = spawn('bash', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    killers.push(() => parent.kill('SIGKILL'));
    let out = '';
    parent.stdout.on('data', (d) => (out += d));
    await waitFor(() => /^\d+\n/.test(out), 10_000, 10);
    const pid = Number(out.trim());
    await waitFor(() => state(pid) === 'Z', 10_000, 20);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const procStart = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
    const warehouse = join(tmp.dir, 'lock', 'w.duckdb');
    mkdirSync(join(tmp.dir, 'lock'));
    writeFileSync(`${warehouse}.lock`, JSON.stringify({
      pid, host: hostname(), started_at: new Date(0).toISOString(), proc_start: procStart, instance: 'zombie', command: 'docs-etl sync',
    }), { flag: 'w' });
    const lock = acquireWriterLock(warehouse, 'docs-etl sync', new Date());
    expect((JSON.parse(readFileSync(lock.path, 'utf8')) as { pid: number }).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('a lake lock held by a zombie is taken at once; one held by a live process is not', async () => {
    const parent = spawn('bash', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    killers.push(() => parent.kill('SIGKILL'));
    let out = '';
    parent.stdout.on('data', (d) => (out += d));
    await waitFor(() => /^\d+\n/.test(out), 10_000, 10);
    const pid = Number(out.trim());
    await waitFor(() => state(pid) === 'Z', 10_000, 20);
    const lake = join(tmp.dir, 'lake');
    const lockFile = join(lake, '_docs_etl', 'lock');
    mkdirSync(join(lake, '_docs_etl'), { recursive: true });
    const heldBy = (holder: number) =>
      writeFileSync(lockFile, JSON.stringify({ pid: holder, host: hostname(), startedAt: new Date(0).toISOString(), instance: 'other' }));
    // The live parent (sleep 30) holds it: refused with who holds it, the file untouched.
    heldBy(parent.pid!);
    expect(() => acquireLakeLock(lake, new Date())).toThrow(new RegExp(`being written by another export \\(PID ${parent.pid}`));
    expect((JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid).toBe(parent.pid);
    // The zombie child holds it: stale, taken over by this process.
    heldBy(pid);
    expect(state(pid)).toBe('Z');
    const release = acquireLakeLock(lake, new Date());
    expect((JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid).toBe(process.pid);
    release();
    expect(existsSync(lockFile)).toBe(false);
  });
});
