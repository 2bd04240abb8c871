// The Redis budget store against a real redis-server (test/helpers/redis.ts): two connections play
// two hosts of one organization. Slots, waits and 429 blocks are shared; slots and the log key
// expire with the window on Redis's clock; append-only persistence keeps the log over a restart;
// an unreachable or password-refusing Redis is one FatalError line, fast, without the password.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBudget, type RequestBudget } from '../../src/budget/budget.js';
import { openBudgetBackend, type BudgetBackend } from '../../src/budget/open-budget-store.js';
import { systemClock } from '../../src/core/clock.js';
import { BudgetExhaustedError, FatalError, UsageError } from '../../src/core/errors.js';
import { parseRedisUrl } from '../../src/budget/redis-url.js';
import { secretsOf } from '../../src/core/secrets.js';
import { freePort, HAVE_REDIS, startRedis, type RedisProcess } from '../helpers/redis.js';
import { tempDir } from '../helpers/tmp.js';
import { sleep } from '../helpers/wait.js';

const ORG = 'org_0123456789abcdef';
const tmp = tempDir('docs-etl-redis-budget-');
let redis: RedisProcess;
const open: BudgetBackend[] = [];

beforeAll(async () => {
  if (HAVE_REDIS) redis = await startRedis(tmp.dir, { appendOnly: true });
}, 20_000);
afterAll(async () => {
  for (const b of open) await b.close();
  await redis?.stop();
  tmp.cleanup();
});

/** One "host": its own connection to the shared Redis. */
async function host(url = redis.url): Promise<BudgetBackend> {
  const b = await openBudgetBackend({ url, dir: `${tmp.dir}/never-used` }, systemClock);
  open.push(b);
  return b;
}

function budget(b: BudgetBackend, org: string, limit: number, windowMs: number, maxWaitMs = 0): RequestBudget {
  return createBudget({ store: b.store(org), rate: { limit, windowMs }, clock: systemClock, maxWaitMs });
}

describe.skipIf(!HAVE_REDIS)('Redis budget store', () => {
  it('two hosts share one sliding log: the limit holds across them, usage and available see each other', async () => {
    const [a, b] = [await host(), await host()];
    const org = `${ORG}-shared`;
    const ba = budget(a, org, 4, 60_000);
    const bb = budget(b, org, 4, 60_000);
    const slots = [await ba.acquire(), await bb.acquire(), await ba.acquire()];
    await bb.refresh();
    expect(bb.usage().used).toBe(3);
    expect(bb.available(0)).toBe(1);
    slots.push(await bb.acquire());
    // Host a is full although it took only two itself: the fourth was b's.
    await expect(ba.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
    for (const s of slots) await s.release();
    // Released slots still count for a window after their end.
    await expect(bb.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
    await ba.refresh();
    expect(ba.usage().used).toBe(4);
    // Another organization's log is its own.
    expect((await budget(a, `${ORG}-other`, 4, 60_000).acquire())).toBeTruthy();
  });

  it('a 429 block from one host holds the other, and is bounded by the window', async () => {
    const [a, b] = [await host(), await host()];
    const org = `${ORG}-block`;
    const ba = budget(a, org, 100, 30_000);
    const bb = budget(b, org, 100, 30_000);
    await ba.block(systemClock.now().getTime() + 365 * 86_400_000); // a year: cut to one window
    await bb.refresh();
    const until = bb.usage().blockedUntil - systemClock.now().getTime();
    expect(until).toBeGreaterThan(15_000); // generous: the machine may be slow between the two calls
    expect(until).toBeLessThanOrEqual(30_000 + 1_000);
    expect(bb.available(60_000)).toBe(100);
    expect(bb.available(1_000)).toBe(0);
    const err = await bb.acquire().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExhaustedError);
    // The shared log has no slot taken: the block is someone else's spending, and the message says so.
    expect((err as Error).message).toMatch(/shows 0 of 100 used: another client of this organization spent the budget; the block ends in/);
  });

  it('waits for the oldest slot to leave the window (Redis clock), and the log key expires with it', async () => {
    const a = await host();
    const org = `${ORG}-expiry`;
    const windowMs = 1_200;
    const ba = budget(a, org, 2, windowMs, 10_000);
    const waits: number[] = [];
    const waiting = createBudget({ store: a.store(org), rate: { limit: 2, windowMs }, clock: systemClock, maxWaitMs: 10_000, onWait: (ms) => waits.push(ms) });
    await (await ba.acquire()).release();
    await (await ba.acquire()).release();
    const before = Date.now();
    await (await waiting.acquire()).release();
    // It waited (not refused, not sent at once): about one window after the first slot ended.
    expect(waits.length).toBeGreaterThan(0);
    expect(Date.now() - before).toBeGreaterThanOrEqual(windowMs - 200);
    const raw = new Redis(redis.url);
    try {
      const key = `docs-etl:budget:{${org}}`;
      const ttl = await raw.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(windowMs + 100);
      expect(await raw.zcard(key)).toBeLessThanOrEqual(2);
      await sleep(windowMs + 300);
      expect(await raw.exists(key)).toBe(0);
    } finally {
      raw.disconnect();
    }
  });

  it('with append-only persistence, a Redis restart keeps the log: slots taken before still count', async () => {
    const org = `${ORG}-restart`;
    const a = await host();
    const ba = budget(a, org, 3, 600_000);
    for (let i = 0; i < 3; i++) await (await ba.acquire()).release();
    await a.close();
    await redis.restart();
    const b = await host();
    const bb = budget(b, org, 3, 600_000);
    await bb.refresh();
    expect(bb.usage().used).toBe(3);
    await expect(bb.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
  });

  it('unreachable Redis: one FatalError line, within the connect bound, no fallback', async () => {
    const port = await freePort();
    const started = Date.now();
    const err = await openBudgetBackend({ url: `redis://127.0.0.1:${port}/0`, dir: tmp.dir }, systemClock).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalError);
    expect((err as Error).message).toMatch(new RegExp(`^cannot use the budget store redis://127\\.0\\.0\\.1:${port}/0 \\(DOCS_ETL_BUDGET_URL\\): .*ECONNREFUSED`));
    expect((err as Error).message).not.toContain('\n');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('the URL\'s ?connectTimeout= bounds connecting (a TLS client at a plain port hears nothing); a bad value is one usage line', async () => {
    const started = Date.now();
    const err = await openBudgetBackend({ url: `rediss://127.0.0.1:${redis.port}/0?connectTimeout=200`, dir: tmp.dir }, systemClock).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalError);
    expect((err as Error).message).toMatch(new RegExp(`^cannot use the budget store rediss://127\\.0\\.0\\.1:${redis.port}/0\\?connectTimeout=200 \\(DOCS_ETL_BUDGET_URL\\): .*ETIMEDOUT`));
    // The default bound is 5 s: well under it, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(4_000);
    for (const bad of ['0', '2.5', 'soon', '600001']) {
      const usage = await openBudgetBackend({ url: `redis://127.0.0.1:${redis.port}/0?connectTimeout=${bad}`, dir: tmp.dir }, systemClock).catch((e: unknown) => e);
      expect(usage).toBeInstanceOf(UsageError);
      expect((usage as Error).message).toBe(`DOCS_ETL_BUDGET_URL: connectTimeout must be a whole number of milliseconds from 1 to 600000, got "${bad}"`);
    }
    const ok = await host(`${redis.url}?connectTimeout=2000&commandTimeout=2000`);
    expect(ok.where).toBe(`${redis.url}?connectTimeout=2000&commandTimeout=2000`);
  });

  it('a wrong password: one line naming the problem, never the password', async () => {
    const dir = tempDir('docs-etl-redis-auth-');
    const locked = await startRedis(dir.dir, { password: 'right-horse-battery' });
    try {
      const url = `redis://:wrong-staple-9@127.0.0.1:${locked.port}/0`;
      const err = await openBudgetBackend({ url, dir: dir.dir }, systemClock).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FatalError);
      const msg = (err as Error).message;
      expect(msg).toMatch(/WRONGPASS|invalid password|NOAUTH/i);
      expect(msg).toContain(`redis://:***@127.0.0.1:${locked.port}/0`);
      expect(msg).not.toContain('wrong-staple-9');
      const noPassword = await openBudgetBackend({ url: locked.url, dir: dir.dir }, systemClock).catch((e: unknown) => e);
      expect((noPassword as Error).message).toMatch(/NOAUTH/);
      const good = await host(`redis://:right-horse-battery@127.0.0.1:${locked.port}/0`);
      expect(good.where).toBe(`redis://:***@127.0.0.1:${locked.port}/0`);
      await good.close();
    } finally {
      await locked.stop();
      dir.cleanup();
    }
  });

  it('the password of DOCS_ETL_BUDGET_URL is one of the secrets every error line is scrubbed of', () => {
    const secrets = secretsOf({ DOCS_ETL_BUDGET_URL: 'redis://user:p%40ss-word-1@h:6379/0' });
    expect(secrets).toEqual(expect.arrayContaining(['p%40ss-word-1', 'p@ss-word-1']));
    expect(secretsOf({ DOCS_ETL_BUDGET_URL: 'redis://h:6379/0' })).toEqual([]);
  });

  it('a password with a bare % (not URL-encoded): one usage line naming the fix, never the password', () => {
    let err: unknown = null;
    try {
      parseRedisUrl('redis://:50%off-secret@h:6379/0', 'DOCS_ETL_BUDGET_URL');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect(String((err as Error).message)).toMatch(/DOCS_ETL_BUDGET_URL: the password is not URL-encoded \(write % as %25\)/);
    expect(String((err as Error).message)).not.toMatch(/off-secret/);
  });
});
