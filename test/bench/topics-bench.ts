// `npm run bench -- --scenario topics [--topic-turns 100k,1m]` (docs/topics.md, issue 37): the cost of
// the topic step with distinct questions (as in real traffic), each step in a fresh child started
// with the launcher's memory settings (node-flags.ts), its peak resident set VmHWM:
//   1. the full re-clustering of a period of N unanswered turns (as `docs-etl topics --rebuild`,
//      and a sync's first step of a UTC day), then a step with nothing changed;
//   2. HOURS hourly steps, each after an hour of traffic at 100,000 turns a day (4,167 unanswered
//      turns, nearly all distinct questions): the incremental step a sync runs every hour.
// `--topic-distinct N`: the period's made-up questions drawn from N (1M turns of 200k questions, as
// issue 37 sizes the full re-clustering); the hourly turns stay new questions. Prints a table, then
// one JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEMORY_ENV, MEMORY_FLAGS } from '../../src/core/node-flags.js';
import type { BenchArgs } from './bench-args.js';

const CHILD = fileURLToPath(new URL('./topics-child.js', import.meta.url));
const HOUR_MS = 3_600_000;
const HOURS = 2;
/** An hour of 100,000 turns a day, every one unanswered (the worst case for the step). */
export const HOURLY_TURNS = Math.round(100_000 / 24);

/** Runs topics-child.ts (`gen`, `step`, `hour`) in a fresh process with the launcher's memory settings; its JSON line. */
export function child(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...MEMORY_FLAGS, CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...MEMORY_ENV } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>) : reject(new Error(`topics child ${args[0]} failed (${code}): ${err}`))));
  });
}

interface Step { mode: string; questions: number; questionsSkipped: number; topics: number; durationMs: number; phases: { phase: string; ms: number; cpuMs: number; peakRssMb: number }[] }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function topicsBench(args: BenchArgs): Promise<void> {
  const start = Date.parse('2026-06-01T00:00:00Z');
  const results = [];
  for (const turns of args.topicTurns) {
    const dir = mkdtempSync(join(tmpdir(), 'docs-etl-topics-bench-'));
    try {
      // The period's turns: nearly all distinct, or drawn from --topic-distinct questions (0: unset).
      await child(['gen', dir, String(turns), String(args.seed), String(start), '0', String(args.topicDistinct ?? 0)]);
      const full = await child(['step', dir, String(start)]) as { first: Step; runs: number; retried: string[]; again: { durationMs: number }; hwmKb: number };
      const hours: { step: Step; runs: number; retried: string[]; hwmKb: number }[] = [];
      for (let h = 1; h <= HOURS; h++) {
        const now = start + h * HOUR_MS;
        await child(['gen', dir, String(HOURLY_TURNS), String(args.seed + h), String(now), String(HOUR_MS)]);
        hours.push(await child(['hour', dir, String(now)]) as { step: Step; runs: number; retried: string[]; hwmKb: number });
      }
      results.push({
        turns, distinct: args.topicDistinct ?? null,
        full: { ...full.first, runs: full.runs, retried: full.retried, peakRssMb: full.hwmKb / 1024, unchangedMs: full.again.durationMs },
        hourly: hours.map((x) => ({ ...x.step, runs: x.runs, retried: x.retried, peakRssMb: x.hwmKb / 1024 })),
        hourlyMedianSeconds: median(hours.map((x) => x.step.durationMs)) / 1000, hourlyMaxPeakRssMb: Math.max(...hours.map((x) => x.hwmKb / 1024)),
      });
    } finally {
      if (!args.keep) rmSync(dir, { recursive: true, force: true });
    }
  }
  const line = (cells: (string | number)[]) => cells.map((c, i) => String(c).padStart(i ? 12 : 10)).join(' ');
  const fmt = (n: number) => n.toLocaleString('en-US');
  const drawn = args.topicDistinct ? `the period's questions drawn from ${fmt(args.topicDistinct)}` : 'distinct questions';
  process.stdout.write(`topic step, ${drawn} (launcher's memory settings; DuckDB 128MB, 2 threads; maxQuestions 200,000)\n`);
  process.stdout.write(`${line(['turns', 'step', 'questions', 'over cap', 'topics', 'seconds', 'peak RSS MB'])}\n`);
  for (const r of results) {
    process.stdout.write(`${line([fmt(r.turns), 'full', fmt(r.full.questions), fmt(r.full.questionsSkipped), fmt(r.full.topics), (r.full.durationMs / 1000).toFixed(1), r.full.peakRssMb.toFixed(0)])}\n`);
    for (const h of r.hourly) {
      process.stdout.write(`${line([`+${fmt(HOURLY_TURNS)}`, h.mode, fmt(h.questions), fmt(h.questionsSkipped), fmt(h.topics), (h.durationMs / 1000).toFixed(2), h.peakRssMb.toFixed(0)])}\n`);
    }
  }
  // Whether a step ran twice (the whole step again at the whole limit), and which parts ran again alone.
  for (const r of results) {
    for (const [name, s] of [['full', r.full], ...r.hourly.map((h, k) => [`hourly ${k + 1}`, h] as const)] as const) {
      process.stdout.write(`${fmt(r.turns)} turns, ${name}: step ran ${s.runs === 1 ? 'once' : `${s.runs} times`}; run again at the whole limit: ${s.retried.join(', ') || 'nothing'}\n`);
    }
  }
  // Where each step's time and memory went (step-phases.ts): phase, wall seconds, CPU seconds (the
  // process's, DuckDB's threads included: the cost on a loaded machine), peak RSS sampled in it.
  for (const r of results) {
    for (const [name, s] of [['full', r.full], ...r.hourly.map((h, k) => [`hourly ${k + 1}`, h] as const)] as const) {
      process.stdout.write(`${fmt(r.turns)} turns, ${name}: ${s.phases.map((p) => `${p.phase} ${(p.ms / 1000).toFixed(2)}s/${(p.cpuMs / 1000).toFixed(2)}s cpu/${p.peakRssMb}MB`).join('; ')}\n`);
    }
  }
  process.stdout.write(`${JSON.stringify({ scenario: 'topics', hourlyTurns: HOURLY_TURNS, results })}\n`);
}
