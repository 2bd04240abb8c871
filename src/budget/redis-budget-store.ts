// The budget store shared by hosts: each organization's request log is a sorted set in Redis
// (DOCS_ETL_BUDGET_URL / config `budget`), keyed by the organization's fingerprint (never the key),
// updated by one Lua script on Redis's clock (redis-budget-script.ts). Nothing falls back to the
// local file: a Redis that cannot be reached, refuses the password or does not answer in time is a
// FatalError naming the URL without its password. Connecting and each command are bounded.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import { FatalError, messageOf } from '../core/errors.js';
import { scrub } from '../core/secrets.js';
import type { BudgetStore, BudgetView, Reserved, SlotPolicy } from './budget-store.js';
import { BUDGET_SCRIPT } from './redis-budget-script.js';
import { redactRedisUrl, redisUrlSecrets, redisUrlTimeouts } from './redis-url.js';

/** Connecting (TCP, TLS, AUTH, SELECT, the first PING) must finish within this (the URL's `?connectTimeout=` may change it). */
export const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/** One script call must answer within this (Redis answers in well under a millisecond; `?commandTimeout=` may change it). */
const REDIS_COMMAND_TIMEOUT_MS = 10_000;
/** Reconnects after a lost connection (a Redis restart) before commands fail: a few, then stop. */
const RECONNECTS = 5;

type Reply = [number, number, number, number, string[]];
type ScriptRedis = Redis & { docsEtlBudget(log: string, block: string, ...args: (string | number)[]): Promise<Reply> };

export class RedisBudget {
  /** The URL without its password (for messages and status). */
  readonly where: string;
  private readonly secrets: string[];

  private constructor(private readonly redis: ScriptRedis, where: string, secrets: string[]) {
    this.where = where;
    this.secrets = secrets;
  }

  /** Connects and checks the server answers (PING); any failure is one FatalError line. */
  static async connect(url: string, source: string): Promise<RedisBudget> {
    const { connectTimeout = REDIS_CONNECT_TIMEOUT_MS, commandTimeout = REDIS_COMMAND_TIMEOUT_MS } = redisUrlTimeouts(url, source);
    const where = redactRedisUrl(url, source);
    let lastError: unknown = null;
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => (times > RECONNECTS ? null : Math.min(times * 200, 1_000)),
      enableAutoPipelining: false,
    }) as ScriptRedis;
    // The URL's query values win over these options in ioredis, as text: the timeouts as numbers.
    Object.assign(redis.options, { connectTimeout, commandTimeout });
    // ioredis prints unhandled 'error' events itself: keep the last one for our own message instead.
    redis.on('error', (err: unknown) => { lastError = err; });
    redis.defineCommand('docsEtlBudget', { numberOfKeys: 2, lua: BUDGET_SCRIPT });
    const budget = new RedisBudget(redis, where, redisUrlSecrets(url));
    try {
      await withTimeout(redis.connect().then(() => redis.ping()), connectTimeout + 1_000);
    } catch (err) {
      redis.disconnect();
      throw new FatalError(`cannot use the budget store ${where} (${source}): ${budget.reason(lastError ?? err)}`);
    }
    return budget;
  }

  store(organization: string, clock: Clock): BudgetStore {
    return new RedisBudgetStore(this, organization, clock);
  }

  /** Runs the script; a failure is a FatalError (the run stops at its checkpoint), never the file log. */
  async call(organization: string, op: string, p: SlotPolicy, slot = '', blockMs = 0): Promise<Reply> {
    const key = `docs-etl:budget:{${organization}}`;
    try {
      return await this.redis.docsEtlBudget(key, `${key}:blocked`, op, p.windowMs, p.marginMs, p.limit, p.slotTtlMs, slot, Math.round(blockMs));
    } catch (err) {
      throw new FatalError(`the budget store ${this.where} failed: ${this.reason(err)}`);
    }
  }

  async close(): Promise<void> {
    try {
      await withTimeout(this.redis.quit(), 1_000);
    } catch {
      this.redis.disconnect();
    }
  }

  /** An error's message on one line, without the password (auth errors never quote it; be sure). */
  private reason(err: unknown): string {
    const code = (err as NodeJS.ErrnoException | null)?.code;
    const text = messageOf(err).replace(/\s+/g, ' ').trim();
    const message = /^(WRONGPASS|NOAUTH)/.test(text) ? `${text} (check the password in the URL)`
      : /max retries per request|Connection is closed/i.test(text) ? `the connection to Redis was lost and not restored (${text.split('.')[0]})`
      : text;
    return scrub(code && !message.includes(code) ? `${code}: ${message}` : message, this.secrets);
  }
}

class RedisBudgetStore implements BudgetStore {
  readonly where: string;
  private last: BudgetView = { slots: [], blockedUntil: 0 };

  constructor(private readonly redis: RedisBudget, private readonly organization: string, private readonly clock: Clock) {
    this.where = redis.where;
  }

  async reserve(p: SlotPolicy): Promise<Reserved> {
    const id = `${this.clock.now().getTime().toString(36)}${randomBytes(6).toString('hex')}`;
    const [taken, waitMs, blockLeft, , members] = await this.run('reserve', p, id);
    const used = members.length / 2;
    // A block while the shared log has room: a client outside this budget store spent it.
    return taken === 1 ? { slot: id, waitMs: 0, used, byOthers: false } : { slot: null, waitMs: Number(waitMs), used, byOthers: Number(blockLeft) > 0 && used < p.limit };
  }

  async release(slot: string, p: SlotPolicy): Promise<void> {
    await this.run('release', p, slot);
  }

  async block(forMs: number, p: SlotPolicy): Promise<void> {
    await this.run('block', p, '', forMs);
  }

  view(): BudgetView {
    return this.last;
  }

  async refresh(p: SlotPolicy): Promise<void> {
    await this.run('read', p);
  }

  /** One script call; its answer becomes the view, in this process's clock (Redis's time shifted). */
  private async run(op: string, p: SlotPolicy, slot = '', blockMs = 0): Promise<Reply> {
    const reply = await this.redis.call(this.organization, op, p, slot, blockMs);
    const local = this.clock.now().getTime();
    const shift = local - Number(reply[3]);
    const members = reply[4];
    const slots: BudgetView['slots'] = [];
    for (let i = 0; i + 1 < members.length; i += 2) {
      const at = Number(members[i + 1]) + shift;
      slots.push(members[i]!.startsWith('o:') ? { end: null, expires: at } : { end: at, expires: at });
    }
    const blockLeft = Number(reply[2]);
    this.last = { slots, blockedUntil: blockLeft > 0 ? local + blockLeft : 0 };
    return reply;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  // The loser of the race may still reject later (a disconnect after the timeout): handled here.
  p.catch(() => {});
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
