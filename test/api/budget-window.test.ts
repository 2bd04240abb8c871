// The counting window of both budget stores, without waiting for it: a slot taken more than half a
// window ago still counts, and one whose window (plus the margin) has passed no longer does. The file
// store runs on a hand-moved clock; the Redis store on Redis's own clock, so its slots are planted at
// scores relative to Redis's TIME (a real redis-server, test/helpers/redis.ts). Each case takes well
// under a second, so a shortened window is caught by these unit tests, not only by the CLI's.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBudget } from '../../src/budget/budget.js';
import { RequestLog } from '../../src/budget/request-log.js';
import { openBudgetBackend, type BudgetBackend } from '../../src/budget/open-budget-store.js';
import { systemClock } from '../../src/core/clock.js';
import { BudgetExhaustedError } from '../../src/core/errors.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { HAVE_REDIS, startRedis, type RedisProcess } from '../helpers/redis.js';
import { tempDir } from '../helpers/tmp.js';

const WINDOW_MS = 3_600_000;
/** Past the budget's safety margin (seconds), far below a window. */
const BEYOND_MARGIN_MS = 60_000;

describe('file budget store: the window', () => {
  const tmp = tempDir('docs-etl-budget-window-');
  afterAll(() => tmp.cleanup());

  it('a slot counts for a whole window after its response, and not after', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const budget = createBudget({ log: new RequestLog(tmp.dir, 'org_window'), rate: { limit: 1, windowMs: WINDOW_MS }, clock, maxWaitMs: 0 });
    await (await budget.acquire()).release();
    clock.advance(WINDOW_MS * 0.6);
    await expect(budget.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
    clock.advance(WINDOW_MS * 0.4 - BEYOND_MARGIN_MS);
    await expect(budget.acquire()).rejects.toBeInstanceOf(BudgetExhaustedError);
    clock.advance(2 * BEYOND_MARGIN_MS);
    await (await budget.acquire()).release();
  });
});

describe.skipIf(!HAVE_REDIS)('Redis budget store: the window', () => {
  const tmp = tempDir('docs-etl-redis-window-');
  let redis: RedisProcess;
  let backend: BudgetBackend;
  let raw: Redis;
  beforeAll(async () => {
    redis = await startRedis(tmp.dir);
    backend = await openBudgetBackend({ url: redis.url, dir: `${tmp.dir}/never-used` }, systemClock);
    raw = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await raw.connect();
  }, 20_000);
  afterAll(async () => {
    raw?.disconnect();
    await backend?.close();
    await redis?.stop();
    tmp.cleanup();
  });

  /** Plants one closed slot that ended `agoMs` before Redis's now, then asks for one slot of a limit of one. */
  async function takeAfterSlotEnded(org: string, agoMs: number): Promise<boolean> {
    const [s, us] = await raw.time();
    const now = Number(s) * 1000 + Math.floor(Number(us) / 1000);
    await raw.zadd(`docs-etl:budget:{${org}}`, now - agoMs, 'c:planted');
    const budget = createBudget({ store: backend.store(org), rate: { limit: 1, windowMs: WINDOW_MS }, clock: systemClock, maxWaitMs: 0 });
    try {
      await (await budget.acquire()).release();
      return true;
    } catch (e) {
      if (e instanceof BudgetExhaustedError) return false;
      throw e;
    }
  }

  it('a slot that ended more than half a window ago still counts', async () => {
    expect(await takeAfterSlotEnded('org_w_half', WINDOW_MS * 0.6)).toBe(false);
    expect(await takeAfterSlotEnded('org_w_late', WINDOW_MS - BEYOND_MARGIN_MS)).toBe(false);
  });

  it('a slot that ended a window (and the margin) ago no longer counts', async () => {
    expect(await takeAfterSlotEnded('org_w_gone', WINDOW_MS + BEYOND_MARGIN_MS)).toBe(true);
  });
});
