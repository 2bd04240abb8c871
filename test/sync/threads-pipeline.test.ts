// The opt-in keyed pipeline assistant_threads against the sandbox over real HTTP into a real DuckDB
// file, in-process: the transcript of every conversation with an unanswered turn, read once.
// The tests that start "after a first sync" copy one made once in this file (the sandbox's history is
// the same for the same seed and clock) and sync on from it against a fresh sandbox.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import { assistantThreadSchema, threadMessageSchema } from '../../src/contracts/analytics-thread.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runSync, selectPipelines, type SyncDeps, type SyncResult } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type AssistantThread, type Sandbox } from '../../src/tools/sandbox/index.js';
import { scalar } from '../helpers/compare.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_threads_test_key_001';
const H = 3_600_000;
const BOTH = ['assistant_conversations', 'assistant_threads'];
const CONVERSATIONS = 150;

let sandbox: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sandbox?.close();
  tmp?.cleanup();
  sandbox = undefined;
  tmp = undefined;
});

const T0 = Date.parse('2026-11-01T12:00:00Z');
// Each thread read is one page and one merge: a small history keeps that count low (over 20 threads).
const sandboxOptions = (clock: FakeClock) => defaultSandboxOptions({ apiKeys: [KEY], conversations: CONVERSATIONS, seed: 21, clock });

async function setup(clock: FakeClock) {
  tmp = tempDir();
  sandbox = await startSandbox(sandboxOptions(clock));
  return { sb: sandbox, warehouse: join(tmp.dir, 'w.duckdb') };
}

/** The first sync at T0 (conversations merged, no thread read yet): its result, its requests and its state folder. */
let firstSync: { result: SyncResult; threadRequests: string[]; dir: string; cleanup: () => void };
beforeAll(async () => {
  const clock = new FakeClock(T0);
  const t = tempDir();
  const sb = await startSandbox(sandboxOptions(clock));
  try {
    const result = await runSync(deps(clock), config(join(t.dir, 'w.duckdb'), sb.url));
    firstSync = { result, threadRequests: threadRequests(sb), dir: t.dir, cleanup: t.cleanup };
  } finally {
    await sb.close();
  }
}, 120_000);
afterAll(() => firstSync?.cleanup());

/** A fresh sandbox at T0 and a copy of the first sync's state folder. */
async function afterFirstSync() {
  const clock = new FakeClock(T0);
  const { sb, warehouse } = await setup(clock);
  cpSync(firstSync.dir, tmp!.dir, { recursive: true });
  return { clock, sb, warehouse };
}

function config(warehouse: string, url: string, limit = 10_000): SyncConfig {
  return defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { rate: { limit, windowMs: H }, maxWaitMs: 60_000, pipelines: BOTH });
}

const deps = (clock: FakeClock): SyncDeps => ({ clock, logger: silentLogger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } });
const threadRequests = (sb: Sandbox) => sb.requestLog(KEY).filter((r) => r.path.includes('/assistant/threads/')).map((r) => r.path.split('/').at(-1)!);

/** Ids of the conversations with an unanswered turn (the export's truth). */
function unansweredIds(sb: Sandbox): string[] {
  return [...new Set(sb.truth('demo').filter((t) => t.resolutionStatus === 'unanswered').map((t) => t.id))].sort();
}

/** thread_messages as the API's threads (messages in position order). */
async function storedThreads(warehouse: string): Promise<Map<string, AssistantThread>> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const rows = (await wh.conn.runAndReadAll(
      `SELECT thread_id, epoch_ms(thread_created_at) AS tc, message_id, role, content, epoch_ms(created_at) AS c
       FROM thread_messages WHERE project_id = 'demo' ORDER BY thread_id, position`,
    )).getRowObjectsJS();
    const out = new Map<string, AssistantThread>();
    for (const r of rows) {
      const id = String(r.thread_id);
      const t = out.get(id) ?? { threadId: id, createdAt: new Date(Number(r.tc)).toISOString(), messages: [] };
      t.messages.push({ id: String(r.message_id), role: r.role as 'user' | 'assistant', content: String(r.content), createdAt: new Date(Number(r.c)).toISOString() });
      out.set(id, t);
    }
    return out;
  } finally {
    wh.close();
  }
}

/** The sandbox's thread with its instants as ISO strings in UTC (as stored). */
function truthOf(sb: Sandbox, id: string): AssistantThread {
  const t = sb.threadTruth('demo', id)!;
  const iso = (s: string) => new Date(Date.parse(s)).toISOString();
  return { threadId: t.threadId, createdAt: iso(t.createdAt), messages: t.messages.map((m) => ({ ...m, createdAt: iso(m.createdAt) })) };
}

async function expectThreadsEqualTruth(sb: Sandbox, warehouse: string): Promise<void> {
  const ids = unansweredIds(sb);
  const stored = await storedThreads(warehouse);
  expect([...stored.keys()].sort()).toEqual(ids);
  for (const id of ids) expect(stored.get(id)).toEqual(truthOf(sb, id));
}

describe('assistant_threads (opt-in keyed pipeline)', () => {
  it('its contract names the fields AssistantThreadResponse requires', () => {
    const api = JSON.parse(readFileSync(new URL('../../docs/api/analytics.openapi.json', import.meta.url), 'utf8')) as {
      components: { schemas: { AssistantThreadResponse: { required: string[]; properties: { messages: { items: { required: string[] } } } } } };
    };
    const s = api.components.schemas.AssistantThreadResponse;
    expect(Object.keys(assistantThreadSchema.shape).sort()).toEqual([...s.required].sort());
    expect(Object.keys(threadMessageSchema.shape).sort()).toEqual([...s.properties.messages.items.required].sort());
  });

  it('is not in the default selection; named, it is', () => {
    expect(selectPipelines(PIPELINES, null).map((p) => p.name)).not.toContain('assistant_threads');
    expect(selectPipelines(PIPELINES, null).map((p) => p.name)).toContain('assistant_conversations');
    expect(selectPipelines(PIPELINES, BOTH).map((p) => p.name)).toEqual(BOTH);
  });

  it('reads the thread of every conversation with an unanswered turn once; a later run reads none again', async () => {
    // The first run loads the conversations; the threads' keys are selected from what is merged.
    expect(firstSync.result.exitCode).toBe(0);
    expect(firstSync.threadRequests).toEqual([]);
    const { clock, sb, warehouse } = await afterFirstSync();
    const ids = unansweredIds(sb);
    expect(ids.length).toBeGreaterThan(20);

    clock.advance(10 * 60_000);
    const second = await runSync(deps(clock), config(warehouse, sb.url));
    expect(second.exitCode).toBe(0);
    expect([...threadRequests(sb)].sort()).toEqual(ids);
    const run = second.runs.find((r) => r.pipeline === 'assistant_threads')!;
    expect(run).toMatchObject({ status: 'succeeded', requests: ids.length, deferred: 0 });
    expect(run.windows.every((w) => w.purpose === 'keyed' && w.complete)).toBe(true);
    await expectThreadsEqualTruth(sb, warehouse);
    expect(await scalar(warehouse, "SELECT count(*) FROM sync_windows WHERE pipeline = 'assistant_threads' AND purpose = 'keyed'")).toBe(BigInt(ids.length));
    expect(await scalar(warehouse, "SELECT count(*) FROM coverage WHERE pipeline = 'assistant_threads'")).toBe(0n);

    clock.advance(10 * 60_000);
    const third = await runSync(deps(clock), config(warehouse, sb.url));
    expect(third.exitCode).toBe(0);
    expect(threadRequests(sb)).toHaveLength(ids.length);
    await expectThreadsEqualTruth(sb, warehouse);
  });

  it('a budget too small for all threads defers the rest; a later run completes them, none read twice', async () => {
    const { clock, sb, warehouse } = await afterFirstSync();
    const ids = unansweredIds(sb);

    clock.advance(2 * H);
    const short = await runSync(deps(clock), config(warehouse, sb.url, 12));
    expect(short.exitCode).toBe(0);
    const run = short.runs.find((r) => r.pipeline === 'assistant_threads')!;
    const read = threadRequests(sb).length;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(ids.length);
    expect(run.status).toBe('succeeded');
    expect(run.deferred).toBe(ids.length - read);
    expect(await scalar(warehouse, 'SELECT count(DISTINCT thread_id) FROM thread_messages')).toBe(BigInt(read));

    clock.advance(2 * H);
    expect((await runSync(deps(clock), config(warehouse, sb.url))).exitCode).toBe(0);
    const all = threadRequests(sb);
    expect(all).toHaveLength(ids.length);
    expect([...all].sort()).toEqual(ids);
    await expectThreadsEqualTruth(sb, warehouse);
  });

  it('a run stopped among the threads: what landed is kept, the next run reads only the rest', async () => {
    const { clock, sb, warehouse } = await afterFirstSync();
    const ids = unansweredIds(sb);

    clock.advance(10 * 60_000);
    const stop = new AbortController();
    const stopped = await runSync({ ...deps(clock), signal: stop.signal, onPage: (s) => { if (s.pipeline === 'assistant_threads' && s.pages === 5) stop.abort(); } },
      config(warehouse, sb.url));
    expect(stopped.runs.find((r) => r.pipeline === 'assistant_threads')).toMatchObject({ status: 'stopped', pages: 5 });
    expect(threadRequests(sb)).toHaveLength(5);
    expect(await scalar(warehouse, 'SELECT count(DISTINCT thread_id) FROM thread_messages')).toBe(5n);

    clock.advance(10 * 60_000);
    expect((await runSync(deps(clock), config(warehouse, sb.url))).exitCode).toBe(0);
    expect([...threadRequests(sb)].sort()).toEqual(ids);
    await expectThreadsEqualTruth(sb, warehouse);
  });

  it('a thread the API does not know (404) is quarantined, the stream succeeds, and it is not asked for again', async () => {
    const { clock, sb, warehouse } = await afterFirstSync();
    // A conversation the API's thread endpoint no longer has (a ULID of no conversation).
    const gone = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const wh = await openWarehouse(warehouse);
    await wh.conn.run(`INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
        first_seen_at, last_seen_at, updated_at) VALUES ('demo', '${gone}', TIMESTAMPTZ '2026-10-31 10:00:00Z', 'q', 'r', 'answer',
        'unanswered', now(), now(), now())`);
    wh.close();

    clock.advance(10 * 60_000);
    const r = await runSync(deps(clock), config(warehouse, sb.url));
    expect(r.exitCode).toBe(0);
    expect(r.runs.find((x) => x.pipeline === 'assistant_threads')).toMatchObject({ status: 'succeeded', quarantined: 1 });
    expect(sb.requestLog(KEY).filter((x) => x.path.endsWith(gone)).map((x) => x.status)).toEqual([404]);
    expect(await scalar(warehouse, `SELECT count(*) FROM quarantine WHERE pipeline = 'assistant_threads' AND json_extract_string(raw, '$.key') = '${gone}'`)).toBe(1n);
    await expectThreadsEqualTruth(sb, warehouse);

    clock.advance(10 * 60_000);
    expect((await runSync(deps(clock), config(warehouse, sb.url))).exitCode).toBe(0);
    expect(sb.requestLog(KEY).filter((x) => x.path.endsWith(gone))).toHaveLength(1);
  });
});

describe('a warehouse from before thread_messages existed', () => {
  it('a dry run with the threads pipeline plans (nothing to read yet) instead of failing; the sync migrates and reads', async () => {
    const { clock, sb, warehouse } = await afterFirstSync();
    const cfg = config(warehouse, sb.url);
    // As an older version left it: no thread_messages, migration 0007 not applied.
    const wh = await openWarehouse(warehouse);
    try {
      await wh.conn.run('DROP TABLE thread_messages');
      await wh.conn.run("DELETE FROM schema_migrations WHERE name LIKE '0007%'");
    } finally {
      wh.close();
    }
    const before = threadRequests(sb).length;
    const dry = await runSync({ ...deps(clock), dryRun: true }, cfg, PIPELINES);
    expect(dry.exitCode).toBe(0);
    expect(threadRequests(sb)).toHaveLength(before);
    clock.advance(60_000);
    expect((await runSync(deps(clock), cfg, PIPELINES)).exitCode).toBe(0);
    expect(threadRequests(sb).length).toBe(unansweredIds(sb).length);
  });
});
