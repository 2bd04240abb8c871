// The persisted rate budget, on a real request-log file in a temp dir, with a hand-moved clock.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createBudget, currentBlock } from '../../src/budget/budget.js';
import { RequestLog } from '../../src/budget/request-log.js';
import { BudgetExhaustedError } from '../../src/core/errors.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp.cleanup());

function setup(limit: number, windowMs: number, maxWaitMs = 0) {
  tmp = tempDir();
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const log = new RequestLog(tmp.dir, 'org_test');
  return { clock, log, budget: createBudget({ log, rate: { limit, windowMs }, clock, maxWaitMs }) };
}

describe('rate budget', () => {
  it('gives out at most `limit` slots, then stops with BudgetExhaustedError when waiting is not allowed', async () => {
    const { budget } = setup(3, 60_000);
    for (let i = 0; i < 3; i++) await (await budget.acquire()).release();
    await expect(budget.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(budget.usage()).toMatchObject({ used: 3, limit: 3 });
  });

  it('a slot frees one window after its response ended, not after it started', async () => {
    const { budget, clock } = setup(1, 10_000, 60_000);
    const slot = await budget.acquire();
    clock.advance(4_000); // a slow response
    await slot.release();
    const t = clock.now().getTime();
    await (await budget.acquire()).release(); // waits (the fake clock sleeps forward)
    expect(clock.now().getTime() - t).toBeGreaterThanOrEqual(10_000);
  });

  it('is shared through the file: a second budget on the same log sees the first one\'s slots', async () => {
    const { budget, log, clock } = setup(2, 60_000);
    await (await budget.acquire()).release();
    await (await budget.acquire()).release();
    const other = createBudget({ log: new RequestLog(tmp.dir, 'org_test'), rate: { limit: 2, windowMs: 60_000 }, clock, maxWaitMs: 0 });
    await expect(other.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(log.readUnlocked().entries).toHaveLength(2);
  });

  it('closes the open slot of a process that died at the moment its death is seen', async () => {
    const { budget, log, clock } = setup(1, 10_000, 60_000);
    const deadPid = 2 ** 22 + 12345; // above pid_max: never a live process
    writeFileSync(log.file, JSON.stringify({ entries: [{ id: 'x', start: clock.now().getTime() - 5_000, end: null, pid: deadPid }], blockedUntil: 0 }));
    const t = clock.now().getTime();
    await (await budget.acquire()).release();
    expect(clock.now().getTime() - t).toBeGreaterThanOrEqual(10_000);
  });

  it('waits for a 429 block and reads a damaged log as empty', async () => {
    const { budget, log, clock } = setup(5, 60_000, 60_000);
    writeFileSync(log.file, '{"entries": [ garbage');
    await budget.block(clock.now().getTime() + 30_000);
    const t = clock.now().getTime();
    await (await budget.acquire()).release();
    expect(clock.now().getTime() - t).toBeGreaterThanOrEqual(30_000);
  });

  it('bounds a 429 block: at most one window (Retry-After of 31 years), at least a second (Retry-After: 0)', async () => {
    const { budget, clock, log } = setup(5, 10_000, 60_000);
    const now = clock.now().getTime();
    await budget.block(now + 999_999_999_000);
    expect(log.readUnlocked().blockedUntil).toBe(now + 10_000);
    expect(currentBlock(tmp.dir, 'org_test', clock, 10_000)?.getTime()).toBe(now + 10_000);
    clock.advance(10_001);
    expect(currentBlock(tmp.dir, 'org_test', clock, 10_000)).toBeNull();
    const t = clock.now().getTime();
    await budget.block(t); // Retry-After: 0
    await (await budget.acquire()).release();
    expect(clock.now().getTime() - t).toBeGreaterThanOrEqual(1_000);
    expect(clock.now().getTime() - t).toBeLessThan(2_000);
  });

  it('clamps a block an older version persisted beyond one window, and writes the clamp back', async () => {
    const { budget, clock, log } = setup(5, 10_000, 60_000);
    const now = clock.now().getTime();
    writeFileSync(log.file, JSON.stringify({ entries: [], blockedUntil: now + 31 * 365 * 86_400_000 }));
    expect(currentBlock(tmp.dir, 'org_test', clock, 10_000)?.getTime()).toBe(now + 10_000);
    await (await budget.acquire()).release(); // waits one window, not 31 years
    expect(clock.now().getTime() - now).toBeGreaterThanOrEqual(10_000);
    expect(clock.now().getTime() - now).toBeLessThan(11_000);
    expect(JSON.parse(readFileSync(log.file, 'utf8')).blockedUntil).toBe(now + 10_000);
  });

  it('closes an open slot of our own PID left by another instance (a restarted container\'s PID 1)', async () => {
    const { budget, log, clock } = setup(1, 10_000, 0);
    const now = clock.now().getTime();
    writeFileSync(log.file, JSON.stringify({ entries: [{ id: 'x', start: now - 1_000, end: null, pid: process.pid, instance: 'a-previous-process' }], blockedUntil: 0 }));
    // Seen dead now: it still counts for one window from now, then never again.
    await expect(budget.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
    clock.advance(10_100);
    await (await budget.acquire()).release(); // maxWait 0: only passes when the old slot freed
    expect(log.readUnlocked().entries.map((e) => e.id)).not.toContain('x');
  });

  it('closes an open slot whose request deadline passed, even when its PID is alive (reused)', async () => {
    const { log, clock } = setup(1, 60_000, 0);
    const now = clock.now().getTime();
    // A live PID (this test's parent) that is not the owner: the slot expired at start + deadline + margin.
    writeFileSync(log.file, JSON.stringify({ entries: [{ id: 'x', start: now - 3_600_000, end: null, pid: process.ppid, instance: 'gone', expires: now - 3_600_000 + 90_000 }], blockedUntil: 0 }));
    const budget = createBudget({ log, rate: { limit: 1, windowMs: 60_000 }, clock, maxWaitMs: 0, requestTimeoutMs: 5_000 });
    await (await budget.acquire()).release();
    const mine = log.readUnlocked().entries;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ pid: process.pid, expires: now + 35_000 });
  });
});
