// The hourly topic step writes in one transaction (issue 37, docs/topics.md): a step killed midway
// (a real process, SIGKILLed at a named point of the step, no sleep) leaves the previous topics,
// their questions, terms and members exactly as they were, and the next step places the hour's
// turns with every member in a topic that exists. Needs `npm run build` (the child runs dist/).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { silentLogger } from '../../src/core/logger.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const DIST = fileURLToPath(new URL('../../dist/src/', import.meta.url));
const tmp = tempDir('docs-etl-hourly-tx-');
const path = join(tmp.dir, 'w.duckdb');
const T0 = Date.parse('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
afterAll(() => tmp.cleanup());

/** `n` unanswered turns asking `question(i)`, at `at` minus i seconds. */
async function addTurns(conn: DuckDBConnection, prefix: string, n: number, at: number, question: string): Promise<void> {
  await conn.run(`
    INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, page_path, first_seen_at, last_seen_at, updated_at)
    SELECT 'alpha', $prefix || i, ts, ${question}, 'no answer', 'answer', 'unanswered', '/docs/p' || (i % 7), ts, ts, ts
    FROM (SELECT i, make_timestamp(($at - 1000 * (i + 1)) * 1000) AS ts FROM range($n) t(i))`, { prefix, n, at });
}

const TABLES = {
  gap_topics: 'SELECT * EXCLUDE (computed_at) FROM gap_topics ORDER BY topic_id',
  gap_topic_questions: 'SELECT * FROM gap_topic_questions ORDER BY qhash',
  gap_topic_terms: 'SELECT * FROM gap_topic_terms ORDER BY topic_id, term',
  gap_topic_members: 'SELECT * FROM gap_topic_members ORDER BY conversation_id',
  gap_topic_index: 'SELECT project_id, source_key, written_at FROM gap_topic_index',
};

async function snapshot(): Promise<Record<string, unknown[]>> {
  const wh = await openWarehouse(path);
  try {
    const out: Record<string, unknown[]> = {};
    for (const [t, sql] of Object.entries(TABLES)) out[t] = (await wh.conn.runAndReadAll(sql)).getRowObjectsJson();
    return out;
  } finally {
    wh.close();
  }
}

/** The step of hour `now` in a child that SIGKILLs itself when the step marks phase `at`. */
function killedStep(now: number, at: string): Promise<NodeJS.Signals | null> {
  const url = (f: string) => pathToFileURL(join(DIST, f)).href;
  const script = `
    const { StepPhases } = await import(${JSON.stringify(url('outputs/topics/step-phases.js'))});
    const { runTopicStep } = await import(${JSON.stringify(url('outputs/topics/topic-step.js'))});
    const { DEFAULT_TOPIC_SETTINGS } = await import(${JSON.stringify(url('outputs/topics/topic-settings.js'))});
    const { openWarehouse } = await import(${JSON.stringify(url('warehouse/warehouse.js'))});
    const mark = StepPhases.prototype.mark;
    StepPhases.prototype.mark = function (phase) {
      mark.call(this, phase);
      if (phase === ${JSON.stringify(at)}) process.kill(process.pid, 'SIGKILL');
    };
    const wh = await openWarehouse(${JSON.stringify(path)});
    const clock = { now: () => new Date(${now}), sleep: async () => {} };
    await runTopicStep({ clock, logger: { info() {}, warn() {}, error() {}, debug() {} } }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS);
    wh.close();
    process.stdout.write('finished\\n');`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal ? resolve(signal) : reject(new Error(`step was not killed at ${at} (exit ${code}): ${err}`))));
  });
}

beforeAll(async () => {
  if (!existsSync(join(DIST, 'outputs/topics/topic-step.js'))) throw new Error('dist/ is missing: run `npm run build` before this test');
  const wh = await openWarehouse(path);
  try {
    await addTurns(wh.conn, 'a', 600, T0 - HOUR, `'how do I configure feature ' || (i % 120)`);
    const first = await runTopicStep({ clock: new FakeClock(T0), logger: silentLogger }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS);
    expect(first.mode).toBe('full');
    // The next hour: paraphrases of known questions and new distinct ones (new topics).
    await addTurns(wh.conn, 'b', 120, T0 + HOUR, `'how can i configure feature ' || (i % 60) || '?'`);
    await addTurns(wh.conn, 'c', 90, T0 + HOUR, `'where is the ' || ['zorblat', 'quinfex', 'mardovan'][i % 3 + 1] || ' rotation key ' || (i % 30) || ' stored'`);
  } finally {
    wh.close();
  }
}, 120_000);

for (const at of ['place: save batch', 'place: keep topic index (gap_topic_index)', 'refresh-topics#5']) {
  it(`an hourly step killed at "${at}" leaves the previous topics as they were`, { timeout: 60_000 }, async () => {
    const before = await snapshot();
    expect(before.gap_topics!.length).toBeGreaterThan(0);
    expect(await killedStep(T0 + HOUR, at)).toBe('SIGKILL');
    expect(await snapshot()).toEqual(before);
  });
}

it('the step after a killed one places the hour: every turn a member of a topic that exists', { timeout: 60_000 }, async () => {
  const wh = await openWarehouse(path);
  try {
    const r = await runTopicStep({ clock: new FakeClock(T0 + HOUR), logger: silentLogger }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS);
    expect(r.mode).toBe('incremental');
    const [c] = (await wh.conn.runAndReadAll(`SELECT
      (SELECT count(*) FROM gap_topic_members) AS members,
      (SELECT count(*) FROM gap_topic_members WHERE topic_id NOT IN (SELECT topic_id FROM gap_topics)) AS orphans,
      (SELECT count(*) FROM gap_topic_questions WHERE topic_id NOT IN (SELECT topic_id FROM gap_topics)) AS orphan_questions,
      (SELECT sum(turns) FROM gap_topics) AS turns`)).getRowObjectsJS();
    expect(c).toEqual({ members: 810n, orphans: 0n, orphan_questions: 0n, turns: 810n });
  } finally {
    wh.close();
  }
});
