// core/owner-lock: the one lock file and owner liveness rule. Real lock files in a temp dir, real
// processes: a dead owner is a child that has exited (and was reaped), a live one a running child.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INSTANCE, currentOwner, ownerAlive, procStart, takeLockFile, type Owner } from '../../src/core/owner-lock.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-owner-lock-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  tmp.cleanup();
});

interface Rec extends Owner { pid: number; host: string; instance: string; note: string }

function lockAt(name: string): string {
  const d = join(tmp.dir, name);
  mkdirSync(d, { recursive: true });
  return join(d, 'lock');
}

function take(path: string, o: { now?: Date; graceMs?: number } = {}) {
  return takeLockFile<Rec>({
    path,
    text: JSON.stringify({ ...currentOwner(), note: 'me' }),
    parse: (t) => JSON.parse(t) as Rec,
    unreadableGrace: o.graceMs === undefined ? undefined : { ms: o.graceMs, now: o.now ?? new Date() },
    busy: (held) => new Error(`held by ${held ? `PID ${held.pid} (${held.note})` : 'nobody readable'}`),
  });
}

async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => c.on('exit', r));
  await new Promise((r) => setTimeout(r, 50)); // reaped by node's child handling
  return c.pid!;
}

function livePid(): number {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(c);
  return c.pid!;
}

describe('takeLockFile', () => {
  it('takes a free lock, names this process in it, and release removes it', () => {
    const path = lockAt('free');
    const lock = take(path);
    const rec = JSON.parse(readFileSync(path, 'utf8')) as Rec;
    expect(rec).toMatchObject({ pid: process.pid, host: hostname(), instance: INSTANCE, note: 'me' });
    expect(() => take(path)).toThrow(`held by PID ${process.pid} (me)`);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it("a dead owner's lock is taken over", async () => {
    const path = lockAt('dead');
    const pid = await deadPid();
    writeFileSync(path, JSON.stringify({ pid, host: hostname(), instance: 'theirs', note: 'dead' }));
    const lock = take(path);
    expect((JSON.parse(readFileSync(path, 'utf8')) as Rec).note).toBe('me');
    lock.release();
  });

  it("a live owner's lock is not taken over, and its file is left as it was", () => {
    const path = lockAt('live');
    const pid = livePid();
    const text = JSON.stringify({ pid, host: hostname(), instance: 'theirs', procStart: null, note: 'live' });
    writeFileSync(path, text);
    expect(() => take(path)).toThrow(`held by PID ${pid} (live)`);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it("release leaves a lock that is no longer this process's (removed by an operator, then taken by another)", () => {
    const path = lockAt('retaken');
    const lock = take(path);
    const other = JSON.stringify({ pid: livePid(), host: hostname(), instance: 'theirs', note: 'other' });
    writeFileSync(path, other);
    lock.release();
    expect(readFileSync(path, 'utf8')).toBe(other);
  });

  it('an unreadable lock is taken over at once, or trusted during a grace period where the lock asks for one', () => {
    const path = lockAt('unreadable');
    writeFileSync(path, '{"pid":');
    expect(() => take(path, { graceMs: 10_000, now: new Date() })).toThrow('held by nobody readable');
    take(path, { graceMs: 10_000, now: new Date(Date.now() + 60_000) }).release();
    writeFileSync(path, '');
    take(path).release();
  });
});

describe('ownerAlive', () => {
  it('a live process is alive; an exited one, this PID under another instance, or a reused PID (other start time) is not', async () => {
    const live = livePid();
    expect(ownerAlive({ pid: live, host: hostname() })).toBe(true);
    expect(ownerAlive({ pid: live, procStart: procStart(live) })).toBe(true);
    expect(ownerAlive({ pid: live, procStart: '1' })).toBe(false);
    expect(ownerAlive({ pid: await deadPid() })).toBe(false);
    expect(ownerAlive({ pid: process.pid, instance: 'a-process-before-us' })).toBe(false);
    expect(ownerAlive({ pid: process.pid, instance: INSTANCE })).toBe(true);
    expect(ownerAlive({ pid: 1, instance: `${INSTANCE}-1700000000000` })).toBe(true);
  });

  it('another host is alive (never taken over by PID), until the age rule says it was not renewed in time', async () => {
    const gone = await deadPid();
    const now = new Date('2026-03-01T12:00:00Z');
    expect(ownerAlive({ pid: gone, host: 'another-host' })).toBe(true);
    expect(ownerAlive({ pid: gone, host: 'another-host' }, { now, seenAt: now.getTime() - 3_600_000, staleAfterMs: 3_600_000 })).toBe(true);
    expect(ownerAlive({ pid: gone, host: 'another-host' }, { now, seenAt: now.getTime() - 3_600_001, staleAfterMs: 3_600_000 })).toBe(false);
    expect(ownerAlive({ pid: livePid(), host: hostname() }, { now, seenAt: Number.NaN, staleAfterMs: 3_600_000 })).toBe(false);
  });
});
