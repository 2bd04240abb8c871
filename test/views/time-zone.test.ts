// Views mean the same to every reader: day boundaries come from the project's declared zone
// (projects.timezone, UTC by default), never from the reader's session. A real sync from the
// sandbox fills a real DuckDB file; readers then open it with different session time zones.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { normalizeOffset, type ConversationTurn } from '../../src/contracts/analytics.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_time_zone_test_key';
const SESSION_ZONES = ['UTC', 'Asia/Tokyo', 'America/Los_Angeles'];
const clock = new FakeClock(Date.parse('2026-11-01T12:00:00Z'));
// Six days of history, all of it synced (the daily pipelines read one request per day and project).
const HISTORY_FROM = new Date('2026-10-26T00:00:00Z');
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;

function config(zones: Record<string, string | undefined>): SyncConfig {
  return defaultSyncConfig(warehouse, Object.entries(zones).map(([projectId, timezone]) => ({
    projectId, apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: HISTORY_FROM, timezone,
  })), { rate: { limit: 10_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, budgetDir: join(tmp.dir, 'budget') });
}

beforeAll(async () => {
  tmp = tempDir('docs-etl-tz-');
  warehouse = join(tmp.dir, 'w.duckdb');
  // Every pipeline runs (so every view has rows); a small site keeps the daily aggregates quick.
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: ['utc', 'tokyo', 'la'], conversations: 1500, historyDays: 6, seed: 5, clock,
    site: { pages: 40, feedbackPerDay: 20, searchesPerDay: 200, viewsPerDay: 1000 },
  }));
  const r = await runSync({ clock, logger: silentLogger }, config({ utc: undefined, tokyo: 'Asia/Tokyo', la: 'America/Los_Angeles' }), PIPELINES);
  expect(r.exitCode).toBe(0);
  // Something for the static export views too, so every view has rows.
  const wh = await openWarehouse(warehouse);
  try {
    await wh.conn.run(`INSERT INTO static_export_jobs VALUES ('se_0000000000000001', 'docs.example.com', NULL, 'completed', 100, 2,
      '2026-10-31 23:30:00+00', '2026-10-31 23:59:00+00', '2026-10-31 23:59:00+00', NULL, 10, 'ab', '/x', NULL, '2026-11-01 00:00:00+00')`);
    await wh.conn.run(`INSERT INTO site_pages VALUES ('se_0000000000000001', 'docs.example.com', 'index', 'Home', 5),
      ('se_0000000000000001', 'docs.example.com', 'guides/getting-started', 'Start', 7),
      ('se_0000000000000001', 'docs.example.com', 'never/cited', 'Nobody reads this', 3)`);
  } finally {
    wh.close();
  }
}, 90_000);
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

/** Every view's rows (all columns, a stable order) as read by a session in `zone`. */
async function readViews(zone: string): Promise<Record<string, string>> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    await wh.conn.run(`SET TimeZone = '${zone}'`);
    const names = (await wh.conn.runAndReadAll('SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1'))
      .getRowObjectsJS().map((r) => String(r.view_name));
    const out: Record<string, string> = {};
    for (const v of names) {
      const rows = (await wh.conn.runAndReadAll(`SELECT * FROM "${v}" ORDER BY ALL`)).getRowObjectsJS();
      out[v] = JSON.stringify(rows, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
    }
    return out;
  } finally {
    wh.close();
  }
}

/** Turns per day of the truth, days counted in `zone` by Intl (independent of DuckDB). */
function expectedDays(truth: ConversationTurn[], zone: string): Record<string, number> {
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const days: Record<string, number> = {};
  for (const t of truth) {
    const day = fmt.format(new Date(normalizeOffset(t.timestamp)));
    days[day] = (days[day] ?? 0) + 1;
  }
  return days;
}

async function dailyTurns(projectId: string): Promise<{ days: Record<string, number>; zones: string[] }> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    await wh.conn.run("SET TimeZone = 'Pacific/Kiritimati'"); // UTC+14: the farthest a reader can be
    const rows = (await wh.conn.runAndReadAll(
      "SELECT strftime(day, '%Y-%m-%d') AS day, turns, timezone FROM daily_unanswered_rate WHERE project_id = $p", { p: projectId },
    )).getRowObjectsJS();
    return { days: Object.fromEntries(rows.map((r) => [String(r.day), Number(r.turns)])), zones: [...new Set(rows.map((r) => String(r.timezone)))] };
  } finally {
    wh.close();
  }
}

describe('views and time zones', () => {
  it('every view gives identical rows in sessions set to UTC, Asia/Tokyo and America/Los_Angeles', async () => {
    const [utc, ...others] = await Promise.all(SESSION_ZONES.map(readViews));
    expect(Object.keys(utc!)).toContain('daily_unanswered_rate');
    for (const [name, rows] of Object.entries(utc!)) expect(rows.length, `${name} is empty`).toBeGreaterThan(2);
    for (const other of others) expect(other).toEqual(utc);
  });

  it('the setup would catch a view that follows the session: a plain CAST to DATE differs by session', async () => {
    const naive = async (zone: string) => {
      const wh = await openWarehouse(warehouse, { readOnly: true });
      try {
        await wh.conn.run(`SET TimeZone = '${zone}'`);
        return JSON.stringify((await wh.conn.runAndReadAll('SELECT CAST(occurred_at AS DATE) d, count(*) n FROM conversations GROUP BY 1 ORDER BY 1')).getRows(),
          (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
      } finally {
        wh.close();
      }
    };
    expect(await naive('Asia/Tokyo')).not.toEqual(await naive('America/Los_Angeles'));
  });

  it("a project's declared zone sets its day boundaries; no zone means UTC", async () => {
    for (const [project, zone] of [['utc', 'UTC'], ['tokyo', 'Asia/Tokyo'], ['la', 'America/Los_Angeles']] as const) {
      const got = await dailyTurns(project);
      expect(got.zones).toEqual([zone]);
      expect(got.days, project).toEqual(expectedDays(sb.truth(project), zone));
    }
    // The zones matter for this data: Tokyo's days are not UTC's days.
    expect(expectedDays(sb.truth('tokyo'), 'Asia/Tokyo')).not.toEqual(expectedDays(sb.truth('tokyo'), 'UTC'));
  });

  it('the sync upserts projects from its configuration: a changed zone moves updated_at, an unchanged one does not', async () => {
    const rows = async () => {
      const wh = await openWarehouse(warehouse, { readOnly: true });
      try {
        return (await wh.conn.runAndReadAll('SELECT project_id, timezone, epoch_ms(updated_at) AS at FROM projects ORDER BY 1')).getRowObjectsJS()
          .map((r) => ({ project: String(r.project_id), zone: String(r.timezone), at: Number(r.at) }));
      } finally {
        wh.close();
      }
    };
    const before = await rows();
    expect(before.map((r) => [r.project, r.zone])).toEqual([['la', 'America/Los_Angeles'], ['tokyo', 'Asia/Tokyo'], ['utc', 'UTC']]);
    clock.advance(60_000);
    const r = await runSync({ clock, logger: silentLogger }, config({ utc: 'Europe/Berlin', tokyo: 'Asia/Tokyo' }), PIPELINES);
    expect(r.exitCode).toBe(0);
    const after = await rows();
    const by = (list: typeof after, p: string) => list.find((x) => x.project === p)!;
    expect(by(after, 'utc')).toEqual({ project: 'utc', zone: 'Europe/Berlin', at: clock.ms });
    expect(by(after, 'tokyo')).toEqual(by(before, 'tokyo'));
    expect(by(after, 'la')).toEqual(by(before, 'la')); // not configured in this run: left as it was
    expect((await dailyTurns('utc')).days).toEqual(expectedDays(sb.truth('utc'), 'Europe/Berlin'));
  });
});
