// The sandbox at scale (not run in CI): build time, retained data memory (heap + array buffers after
// a GC), peak RSS (VmHWM) after the build, and the time to serve a page of 1000 (read + render +
// JSON.stringify, no HTTP) along full-range cursor chains and in 1-hour windows: wall time and
// this process's CPU time (steadier on a busy machine), with the share of JSON.stringify.
//   npm run bench:build && node --expose-gc .bench-build/test/bench/sandbox-scale.js history 1000000
//   npm run bench:build && node --expose-gc .bench-build/test/bench/sandbox-scale.js traffic 1000000 4
// Prints one JSON line.
import { procMemory } from './proc-memory.js';
import { AnalyticsTwin } from '../../src/tools/sandbox/analytics-twin.js';
import { trafficOptions } from '../../src/tools/sandbox/arrival-models.js';
import { defaultSandboxOptions } from '../../src/tools/sandbox/defaults.js';
import { rngFor } from '../../src/tools/sandbox/prng.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 2, 15, 12);
const [mode = 'history', nArg = '1000000', daysArg = '4'] = process.argv.slice(2);
const n = Number(nArg);
const days = Number(daysArg);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const retained = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

const clockMs = START;
const clock = { now: () => new Date(clockMs), sleep: async () => undefined };
const opts = mode === 'traffic'
  ? defaultSandboxOptions({ clock, traffic: trafficOptions(n), historyDays: days })
  : defaultSandboxOptions({ clock, conversations: n, historyDays: 30 });

const before = retained();
let t = performance.now();
const buildCpu0 = process.cpuUsage();
const twin = new AnalyticsTwin(opts);
const visible = twin.visibleCount('demo');
const buildMs = performance.now() - t;
const buildCpuMs = cpuMs(process.cpuUsage(buildCpu0));
const dataBytes = retained() - before;
const builtMem = procMemory();
const total = twin.truthKeys('demo').count; // also times the compact truth
const truthKeysMs = performance.now() - t - buildMs;

interface Chain {
  ms: number[];
  cpuMs: number[];
  jsonCpuMs: number[];
  turns: number;
  examined: number;
}


/** Follows one cursor chain; returns the times of each page and the turns served. */
function chain(fromMs: number | null, toMs: number | null, maxPages = Infinity): Chain {
  const ms: number[] = [];
  const cpu: number[] = [];
  const jsonCpu: number[] = [];
  let cursor: string | null = null;
  let turns = 0;
  let examined = 0;
  do {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const page = twin.page('demo', { limit: 1000, fromMs, toMs, cursor });
    const c1 = process.cpuUsage(c0);
    JSON.stringify({ conversations: page.conversations, nextCursor: page.nextCursor, hasMore: page.hasMore });
    ms.push(performance.now() - t0);
    const c2 = process.cpuUsage(c0);
    cpu.push(cpuMs(c2));
    jsonCpu.push(cpuMs(c2) - cpuMs(c1));
    turns += page.conversations.length;
    examined += page.examined;
    cursor = page.nextCursor;
  } while (cursor !== null && ms.length < maxPages);
  return { ms, cpuMs: cpu, jsonCpuMs: jsonCpu, turns, examined };
}

const quantiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
  return { median: q(0.5), p95: q(0.95), max: q(1) };
};
const stats = (c: Pick<Chain, 'ms' | 'cpuMs' | 'jsonCpuMs'>) => ({
  pages: c.ms.length, wallMs: quantiles(c.ms), cpuMs: quantiles(c.cpuMs), jsonCpuMsMedian: quantiles(c.jsonCpuMs).median,
});

t = performance.now();
const full = chain(null, null);
const fullS = (performance.now() - t) / 1000;
if (full.turns !== visible) throw new Error(`the full chain served ${full.turns} turns, ${visible} are visible`);

const rng = rngFor(1, 'scale-bench'); // the seed label of its first home (src/tools/sandbox/scale-bench.ts): the same windows
const span = (mode === 'traffic' ? days : 30) * 24;
const windows: Chain = { ms: [], cpuMs: [], jsonCpuMs: [], turns: 0, examined: 0 };
let windowTurns = 0;
let windowExamined = 0;
for (let w = 0; w < 20; w++) {
  const from = Math.floor((START - span * HOUR) / HOUR) * HOUR + Math.floor(rng() * (span - 2)) * HOUR;
  const r = chain(from, from + HOUR);
  windows.ms.push(...r.ms);
  windows.cpuMs.push(...r.cpuMs);
  windows.jsonCpuMs.push(...r.jsonCpuMs);
  windowTurns += r.turns;
  windowExamined += r.examined;
}

const mem = procMemory();
process.stdout.write(`${JSON.stringify({
  mode, n, days: mode === 'traffic' ? days : 30, turns: total, visible,
  buildS: Math.round(buildMs) / 1000, buildCpuS: Math.round(buildCpuMs) / 1000, dataMb: mb(dataBytes), bytesPerTurn: Math.round(dataBytes / total),
  truthKeysS: Math.round(truthKeysMs) / 1000,
  vmHwmAfterBuildMb: builtMem ? Math.round(builtMem.hwmKb / 1024) : null,
  fullChain: { ...stats(full), seconds: Math.round(fullS * 10) / 10, examinedPerTurn: Math.round((full.examined / full.turns) * 100) / 100 },
  hourWindows: { ...stats(windows), turnsPerWindow: Math.round(windowTurns / 20), examinedPerTurn: Math.round((windowExamined / windowTurns) * 100) / 100 },
  vmHwmMb: mem ? Math.round(mem.hwmKb / 1024) : null, rssMb: mem ? Math.round(mem.rssKb / 1024) : null,
})}\n`);
