// `npm run bench -- --scenario topics [--turns 100k,1m]`: the cost of the topic step (docs/topics.md)
// at each number of unanswered turns in the period: its time and the peak resident set of the
// process that runs it (VmHWM of a fresh child: DuckDB, the distinct questions, the clustering),
// then the time of a step that finds nothing changed. Prints a table, then one JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchArgs } from './bench-args.js';

const CHILD = fileURLToPath(new URL('./topics-child.js', import.meta.url));

function child(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>) : reject(new Error(`topics child ${args[0]} failed (${code}): ${err}`))));
  });
}

export async function topicsBench(args: BenchArgs): Promise<void> {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const results = [];
  for (const turns of args.topicTurns) {
    const dir = mkdtempSync(join(tmpdir(), 'docs-etl-topics-bench-'));
    try {
      const genStarted = performance.now();
      await child(['gen', dir, String(turns), String(args.seed), String(now)]);
      const genMs = performance.now() - genStarted;
      const r = await child(['step', dir, String(now)]) as {
        first: { questions: number; questionsSkipped: number; topics: number; durationMs: number; peakRssBytes: number };
        again: { durationMs: number; status: string }; rssBeforeKb: number; hwmKb: number;
      };
      results.push({
        turns, questions: r.first.questions, questionsSkipped: r.first.questionsSkipped, topics: r.first.topics,
        stepSeconds: r.first.durationMs / 1000, stepSampledPeakRssMb: r.first.peakRssBytes / 1048576, processPeakRssMb: r.hwmKb / 1024,
        unchangedMs: r.again.durationMs, generateSeconds: genMs / 1000,
      });
    } finally {
      if (!args.keep) rmSync(dir, { recursive: true, force: true });
    }
  }
  const line = (cells: (string | number)[]) => cells.map((c, i) => String(c).padStart(i ? 12 : 10)).join(' ');
  process.stdout.write(`topic step (from nothing, default settings: maxQuestions 200,000; DuckDB 128MB, 2 threads)\n`);
  process.stdout.write(`${line(['turns', 'questions', 'over cap', 'topics', 'step s', 'peak RSS MB', 'unchanged ms'])}\n`);
  for (const r of results) {
    process.stdout.write(`${line([r.turns.toLocaleString('en-US'), r.questions.toLocaleString('en-US'), r.questionsSkipped.toLocaleString('en-US'),
      r.topics.toLocaleString('en-US'), r.stepSeconds.toFixed(1), r.processPeakRssMb.toFixed(0), r.unchangedMs.toFixed(0)])}\n`);
  }
  process.stdout.write(`${JSON.stringify({ scenario: 'topics', results })}\n`);
}
