// A child of the topic bench: `gen DIR TURNS SEED NOW [SPAN_MS [DISTINCT]]` appends unanswered turns to the
// warehouse; `step DIR NOW` runs the topic step once from nothing (the full re-clustering, as
// `docs-etl topics --rebuild`), then once more with nothing changed; `hour DIR NOW` runs the step a
// sync runs (incremental when a full re-clustering of the day exists). Each in a fresh process
// started with the launcher's memory settings, so VmHWM is the step's own peak. One JSON line.
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/core/logger.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';
import { stepMemoryLimit, withMemoryLimit } from '../../src/warehouse/memory-pool.js';
import { procMemory } from './proc-memory.js';
import { writeUnansweredTurns } from './topics-data.js';

export const BENCH_PROJECT = 'bench';

const [mode, dir, ...rest] = process.argv.slice(2);
const path = join(dir!, 'topics.duckdb');
if (mode === 'gen') {
  const [turns, seed, now, span, distinct] = rest.map(Number);
  const wh = await openWarehouse(path);
  try {
    await writeUnansweredTurns(wh.conn, BENCH_PROJECT, turns!, seed!, now!, span || undefined, distinct || undefined);
  } finally {
    wh.close();
  }
  process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
} else {
  const now = Number(rest[0]);
  const clock = { now: () => new Date(now), sleep: async () => {} };
  // What ran twice: the statements run again at the whole limit (logged by the step), and the
  // whole step when withMemoryLimit ran it again (`runs` 2).
  const retried: string[] = [];
  const logger = createLogger({ level: 'info', destination: new Writable({ write(chunk: Buffer, _e, done) {
    const statement = (JSON.parse(chunk.toString()) as { statement?: string }).statement;
    if (statement) retried.push(statement);
    done();
  } }) });
  let runs = 0;
  const counted = (force: boolean) => () => (runs++, runTopicStep({ clock, logger }, wh.conn, BENCH_PROJECT, DEFAULT_TOPIC_SETTINGS, force));
  const before = procMemory();
  // The writer's bounds of a sync (128MB, 2 threads), the step under its step pool as sync and
  // `topics --rebuild` run it (memory-pool.ts).
  const wh = await openWarehouse(path, { memoryLimit: '128MB', threads: 2 });
  const pool = stepMemoryLimit('128MB');
  try {
    if (mode === 'hour') {
      const step = await withMemoryLimit(wh.conn, pool, counted(false));
      process.stdout.write(`${JSON.stringify({ step, runs, retried, rssBeforeKb: before?.rssKb ?? null, hwmKb: procMemory()?.hwmKb ?? null })}\n`);
    } else {
      const first = await withMemoryLimit(wh.conn, pool, counted(true));
      const hwmKb = procMemory()?.hwmKb ?? null;
      const again = await runTopicStep({ clock, logger }, wh.conn, BENCH_PROJECT, DEFAULT_TOPIC_SETTINGS);
      process.stdout.write(`${JSON.stringify({ first, runs, retried, again, rssBeforeKb: before?.rssKb ?? null, hwmKb })}\n`);
    }
  } finally {
    wh.close();
  }
}
