// A child of the topic bench: `gen DIR TURNS SEED NOW` writes the warehouse; `step DIR NOW` runs the
// topic step once from nothing (as `docs-etl topics --rebuild`), then once more with nothing
// changed, in a fresh process so VmHWM is the step's own peak. Prints one JSON line.
import { join } from 'node:path';
import { silentLogger } from '../../src/core/logger.js';
import { openWarehouse } from '../../src/sync/load/warehouse.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';
import { procMemory } from './proc-memory.js';
import { writeUnansweredTurns } from './topics-data.js';

export const BENCH_PROJECT = 'bench';

const [mode, dir, ...rest] = process.argv.slice(2);
const path = join(dir!, 'topics.duckdb');
if (mode === 'gen') {
  const [turns, seed, now] = rest.map(Number);
  const wh = await openWarehouse(path);
  try {
    await writeUnansweredTurns(wh.conn, BENCH_PROJECT, turns!, seed!, now!);
  } finally {
    wh.close();
  }
  process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
} else {
  const now = Number(rest[0]);
  const clock = { now: () => new Date(now), sleep: async () => {} };
  const before = procMemory();
  // The writer's bounds of a sync (128MB, 2 threads).
  const wh = await openWarehouse(path, { memoryLimit: '128MB', threads: 2 });
  try {
    const first = await runTopicStep({ clock, logger: silentLogger }, wh.conn, BENCH_PROJECT, DEFAULT_TOPIC_SETTINGS, true);
    const again = await runTopicStep({ clock, logger: silentLogger }, wh.conn, BENCH_PROJECT, DEFAULT_TOPIC_SETTINGS);
    process.stdout.write(`${JSON.stringify({ first, again, rssBeforeKb: before?.rssKb ?? null, hwmKb: procMemory()?.hwmKb ?? null })}\n`);
  } finally {
    wh.close();
  }
}
