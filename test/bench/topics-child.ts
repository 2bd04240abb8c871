// A child of the topic bench: `gen DIR TURNS SEED NOW [SPAN_MS [DISTINCT]]` appends unanswered turns to the
// warehouse; `step DIR NOW` runs the topic step once from nothing (the full re-clustering, as
// `docs-etl topics --rebuild`), then once more with nothing changed; `hour DIR NOW` runs the step a
// sync runs (incremental when a full re-clustering of the day exists). Each in a fresh process
// started with the launcher's memory settings, so VmHWM is the step's own peak. One JSON line.
import { join } from 'node:path';
import { silentLogger } from '../../src/core/logger.js';
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
  const before = procMemory();
  // The writer's bounds of a sync (128MB, 2 threads), the step under its step pool as sync and
  // `topics --rebuild` run it (memory-pool.ts).
  const wh = await openWarehouse(path, { memoryLimit: '128MB', threads: 2 });
  const pool = stepMemoryLimit('128MB');
  try {
    if (mode === 'hour') {
      const step = await withMemoryLimit(wh.conn, pool, () => runTopicStep({ clock, logger: silentLogger }, wh.conn, BENCH_PROJECT, DEFAULT_TOPIC_SETTINGS));
      process.stdout.write(`${JSON.stringify({ step, rssBeforeKb: before?.rssKb ?? null, hwmKb: procMemory()?.hwmKb ?? null })}\n`);
    } else {
      const first = await withMemoryLimit(wh.conn, pool, () => runTopicStep({ clock, logger: silentLogger }, wh.conn, BENCH_PROJECT, DEFAULT_TOPIC_SETTINGS, true));
      const hwmKb = procMemory()?.hwmKb ?? null;
      const again = await runTopicStep({ clock, logger: silentLogger }, wh.conn, BENCH_PROJECT, DEFAULT_TOPIC_SETTINGS);
      process.stdout.write(`${JSON.stringify({ first, again, rssBeforeKb: before?.rssKb ?? null, hwmKb })}\n`);
    }
  } finally {
    wh.close();
  }
}
