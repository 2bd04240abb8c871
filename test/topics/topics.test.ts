// Gap topics end to end: a warehouse synced from the sandbox over real HTTP (the topic step runs in
// the sync), measured against the sandbox's truth (the topic and language of each unanswered
// question it served); stable ids when 10% new questions arrive; an unchanged input skips the
// step; and the real CLI prints the top topics.
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReadPath } from '../../src/sync/publish/snapshot.js';
import { silentLogger } from '../../src/core/logger.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { gapTruthOf } from '../../src/tools/sandbox/gap-questions.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { KEY, PROJECT, syncedWarehouse } from '../report/report-fixture.js';

let tmp: ReturnType<typeof tempDir>;
let warehouse: string;

beforeAll(async () => {
  tmp = tempDir('docs-etl-topics-');
  warehouse = await syncedWarehouse(tmp.dir);
}, 300_000); // the first file of a run builds the shared fixture; the others wait for it

afterAll(() => tmp?.cleanup());

type Row = Record<string, unknown>;

async function rows(path: string, sql: string, params: Record<string, string> = {}): Promise<Row[]> {
  const wh = await openWarehouse(path, { readOnly: true });
  try {
    return (await wh.conn.runAndReadAll(sql, params)).getRowObjectsJS() as Row[];
  } finally {
    wh.close();
  }
}

const pairs = (n: number) => (n * (n - 1)) / 2;

/** Pairwise precision and recall of "same topic" over distinct questions with a known truth. */
function pairwise(items: { truth: string; topic: string }[]): { precision: number; recall: number } {
  const cell = new Map<string, number>();
  const truth = new Map<string, number>();
  const topic = new Map<string, number>();
  for (const it of items) {
    cell.set(`${it.truth}\u0000${it.topic}`, (cell.get(`${it.truth}\u0000${it.topic}`) ?? 0) + 1);
    truth.set(it.truth, (truth.get(it.truth) ?? 0) + 1);
    topic.set(it.topic, (topic.get(it.topic) ?? 0) + 1);
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, n) => a + pairs(n), 0);
  const both = sum(cell);
  return { precision: both / sum(topic), recall: both / sum(truth) };
}

/** Each distinct unanswered question of the project with its topic (a question's turns share one). */
async function questionTopics(path: string): Promise<{ query: string; topic: string }[]> {
  return (await rows(path, `
    SELECT DISTINCT c.query, m.topic_id
    FROM gap_topic_members m JOIN conversations c ON c.project_id = m.project_id AND c.id = m.conversation_id AND c.occurred_at = m.occurred_at
    WHERE m.project_id = $p`, { p: PROJECT })).map((r) => ({ query: String(r.query), topic: String(r.topic_id) }));
}

describe('gap topics', () => {
  it('groups the sandbox\'s unanswered questions like its truth: pairwise precision and recall ≥ 0.8', async () => {
    const members = await questionTopics(warehouse);
    const unanswered = await rows(warehouse, `SELECT count(*) AS n, count(DISTINCT query) AS q FROM conversations WHERE resolution_status = 'unanswered'`);
    const memberTurns = await rows(warehouse, 'SELECT count(*) AS n FROM gap_topic_members');
    // Every unanswered turn of the period (all of the sandbox's 30 days) is a member of one topic.
    expect(Number(memberTurns[0]!.n)).toBe(Number(unanswered[0]!.n));
    expect(members.length).toBe(Number(unanswered[0]!.q));
    const labelled = members.flatMap((m) => {
      const t = gapTruthOf(m.query);
      return t ? [{ truth: t.label, topic: m.topic }] : [];
    });
    expect(labelled.length).toBeGreaterThan(0.95 * members.length);
    const { precision, recall } = pairwise(labelled);
    console.log(`gap topics on ${labelled.length} labelled distinct questions (${new Set(labelled.map((l) => l.truth)).size} true topics, `
      + `${new Set(labelled.map((l) => l.topic)).size} found): pairwise precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    expect(precision).toBeGreaterThanOrEqual(0.8);
    expect(recall).toBeGreaterThanOrEqual(0.8);
    // Never two languages in one topic.
    const langs = new Map<string, Set<string>>();
    for (const m of members) {
      const t = gapTruthOf(m.query);
      if (t) langs.set(m.topic, (langs.get(m.topic) ?? new Set()).add(t.language));
    }
    const mixed = [...langs.values()].filter((s) => s.size > 1).length;
    expect(mixed / langs.size).toBeLessThan(0.1);
  });

  it('fills gap_topics with counts that add up to the members, a representative label, pages and trend', async () => {
    const topics = await rows(warehouse, 'SELECT * FROM gap_topics_top WHERE project_id = $p ORDER BY rank', { p: PROJECT });
    expect(topics.length).toBeGreaterThan(10);
    const perTopic = await rows(warehouse, `
      SELECT topic_id, count(*) AS turns, count(DISTINCT conversation_id) AS conversations, min(occurred_at) AS first, max(occurred_at) AS last
      FROM gap_topic_members GROUP BY topic_id`);
    const byId = new Map(perTopic.map((r) => [String(r.topic_id), r]));
    for (const t of topics) {
      const m = byId.get(String(t.topic_id))!;
      expect(Number(t.turns)).toBe(Number(m.turns));
      expect(Number(t.conversations)).toBe(Number(m.conversations));
      expect((t.first_asked_at as Date).getTime()).toBe((m.first as Date).getTime());
      expect((t.examples as string[])[0]).toBe(t.label);
    }
    expect(topics.map((t) => Number(t.turns))).toEqual(topics.map((t) => Number(t.turns)).sort((a, b) => b - a));
    const top = topics[0]!;
    // The biggest gap of the sandbox is Okta SSO (weights in gap-questions.ts), in English.
    expect(gapTruthOf(String(top.label))?.topic).toBe('okta-sso');
    expect(top.language).toBe('en');
    expect((top.top_pages as string[]).length).toBeGreaterThan(0);
    const trend = Number(top.turns_prev_7d) === 0 ? null : Number(((Number(top.turns_last_7d) - Number(top.turns_prev_7d)) / Number(top.turns_prev_7d)).toFixed(4));
    expect(top.trend === null ? null : Number(top.trend)).toBe(trend);
    const runs = await rows(warehouse, 'SELECT * FROM gap_topic_runs');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe('computed');
    expect(Number(runs[0]!.peak_rss_bytes)).toBeGreaterThan(10_000_000);
    expect(Number(runs[0]!.duration_ms)).toBeGreaterThan(0);
  });

  it('keeps topic ids across two runs when 10% new questions arrive; an unchanged input skips the step', { timeout: 60_000 }, async () => {
    const copy = join(tmp.dir, 'stable.duckdb');
    const wh = await openWarehouse(warehouse);
    try {
      await wh.conn.run(`ATTACH '${copy}' AS s`);
      await wh.conn.run('COPY FROM DATABASE w TO s');
    } finally {
      wh.close();
    }
    const clock = new FakeClock(Date.now());
    const w2 = await openWarehouse(copy);
    try {
      const c = w2.conn;
      // Run 1 without a tenth of the unanswered turns (chosen by a hash of their id); run 2 with them.
      await c.run(`CREATE TABLE held AS SELECT * FROM conversations WHERE resolution_status = 'unanswered' AND hash(id || 'x') % 10 = 0`);
      await c.run(`DELETE FROM conversations WHERE resolution_status = 'unanswered' AND hash(id || 'x') % 10 = 0`);
      const first = await runTopicStep({ clock, logger: silentLogger }, c, PROJECT, DEFAULT_TOPIC_SETTINGS, true);
      const before = await c.runAndReadAll('SELECT conversation_id, occurred_at, topic_id FROM gap_topic_members');
      const ids1 = new Map(before.getRowObjectsJS().map((r) => [`${String(r.conversation_id)}|${(r.occurred_at as Date).getTime()}`, String(r.topic_id)]));
      // They arrive as a later sync's merge inserts them: read (first_seen_at) and changed (updated_at) now.
      clock.advance(60_000);
      await c.run(`INSERT INTO conversations SELECT * REPLACE (CAST($now AS TIMESTAMPTZ) AS first_seen_at, CAST($now AS TIMESTAMPTZ) AS last_seen_at,
        CAST($now AS TIMESTAMPTZ) AS updated_at) FROM held`, { now: clock.now().toISOString() });
      const second = await runTopicStep({ clock, logger: silentLogger }, c, PROJECT, DEFAULT_TOPIC_SETTINGS);
      expect(second.status).toBe('computed');
      // The hourly path: only the new questions placed (the full re-clustering was made today).
      expect(first.mode).toBe('full');
      expect(second.mode).toBe('incremental');
      expect(second.questions).toBeLessThan(first.questions);
      // Every unanswered turn is a member again, each once.
      const counts = (await c.runAndReadAll(`SELECT (SELECT count(*) FROM conversations WHERE resolution_status = 'unanswered') AS u,
        (SELECT count(*) FROM gap_topic_members) AS m, (SELECT count(DISTINCT (conversation_id, occurred_at)) FROM gap_topic_members) AS d`)).getRowObjectsJS()[0]!;
      expect([Number(counts.m), Number(counts.d)]).toEqual([Number(counts.u), Number(counts.u)]);
      expect(second.turns).toBeGreaterThan(first.turns * 1.05);
      const after = (await c.runAndReadAll('SELECT conversation_id, occurred_at, topic_id FROM gap_topic_members')).getRowObjectsJS();
      let same = 0;
      let old = 0;
      for (const r of after) {
        const prev = ids1.get(`${String(r.conversation_id)}|${(r.occurred_at as Date).getTime()}`);
        if (prev === undefined) continue;
        old++;
        if (prev === String(r.topic_id)) same++;
      }
      console.log(`stable ids: ${same} of ${old} turns kept their topic id; ${second.topicsKeptId} of ${second.topics} topics kept an id`);
      expect(old).toBe(ids1.size);
      // Measured over runs of this fixture (its data follows the wall clock): 0.948 to 1.0 of the turns
      // keep their id. A step that made new ids each run would keep none.
      expect(same / old).toBeGreaterThanOrEqual(0.9);
      // The ten biggest topics of the first run all still exist.
      const top1 = (await c.runAndReadAll('SELECT DISTINCT topic_id FROM gap_topic_members')).getRows().map((r) => String(r[0]));
      const biggest = [...ids1.values()].reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());
      const ten = [...biggest].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([id]) => id);
      expect(ten.filter((id) => top1.includes(id))).toEqual(ten);
      // Nothing changed since: the step is skipped and the topics stay.
      clock.advance(60_000);
      const third = await runTopicStep({ clock, logger: silentLogger }, c, PROJECT, DEFAULT_TOPIC_SETTINGS);
      expect(third.status).toBe('unchanged');
      expect((await c.runAndReadAll('SELECT count(*) FROM gap_topic_members')).getRows()[0]![0]).toBe(BigInt(after.length));
    } finally {
      w2.close();
    }
  });

  it('docs-etl topics prints the top topics as json, csv and a table; --rebuild recomputes them', async () => {
    const env = cliEnv({ DOCS_API_KEY: KEY });
    // The first as the built CLI (a real process: its stdout and exit code); the others through the
    // CLI's own main in-process (the same parsing, command and error path, without a Node start each).
    const json = await runCli(['topics', '--warehouse', warehouse, '--format', 'json', '--limit', '5'], env);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout) as Row[];
    expect(list.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    const db = await rows(warehouse, 'SELECT topic_id, label, turns FROM gap_topics_top ORDER BY rank LIMIT 5');
    expect(list.map((r) => [r.topic_id, r.label, Number(r.turns)])).toEqual(db.map((r) => [r.topic_id, r.label, Number(r.turns)]));
    const csv = await runMain(['topics', '--warehouse', warehouse, '--format', 'csv', '--limit', '3'], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^project_id,rank,topic_id,language,label,turns,conversations/);
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(4);
    const table = await runMain(['topics', '--warehouse', warehouse, '--format', 'table', '--limit', '3'], env);
    expect(table.stdout.split("\n")[0]).toMatch(/^proje\S*\s+rank\s+topic\S*\s+langu/);
    expect(table.stdout.split("\n")[1]).toMatch(/^-+ +-+/);
    const rebuilt = await runMain(['topics', '--rebuild', '--warehouse', warehouse, '--format', 'json', '--limit', '5'], env);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stderr).toMatch(/demo: [\d,]+ topics from [\d,]+ questions \([\d,]+ turns\) in [\d.]+s, peak RSS \d+ MB/);
    // Recomputed from the same turns: the same topics under the same ids.
    expect((JSON.parse(rebuilt.stdout) as Row[]).map((r) => r.topic_id)).toEqual(list.map((r) => r.topic_id));
    // Published the way sync publishes: the read path stays a catalog (conversations a view over
    // Parquet files), not a full copy of the warehouse.
    const read = await DuckDBInstance.create(defaultReadPath(warehouse), { access_mode: 'READ_ONLY' });
    const rc = await read.connect();
    try {
      const kind = (await rc.runAndReadAll("SELECT table_type FROM information_schema.tables WHERE table_name = 'conversations'")).getRows();
      expect(kind).toEqual([['VIEW']]);
    } finally {
      rc.closeSync();
      read.closeSync();
    }
    const bad = await runMain(['topics', '--warehouse', warehouse, '--format', 'xml'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const period = await runMain(['topics', '--warehouse', warehouse, '--topic-period', '30d'], env);
    expect(period.code).toBe(2);
    expect(period.stderr).toMatch(/--topic-period applies with --rebuild/);
  }, 120_000);
});
