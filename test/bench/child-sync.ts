// Runs a measured sync in a child process, so its memory is its own (the sandbox lives in the
// bench process) and its event loop shares nothing with the sandbox's. The wall time includes the
// child's start: node, module loading, opening the warehouse.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NodeSetup } from './container-node.js';
import type { MeasuredSync, MeasuredSyncInput } from './measured-sync.js';
import { sampleRss } from './proc-memory.js';

const CHILD = fileURLToPath(new URL('./sync-child.js', import.meta.url));

export interface ChildSync extends MeasuredSync {
  /** Spawn to exit. */
  wallMs: number;
  /** Largest resident set sampled from outside (a cross-check of the child's own VmHWM), kB. */
  sampledPeakRssKb: number;
}

export interface ChildSyncHandle {
  pid: number;
  /** Asks the child to stop at its next checkpoint (SIGTERM). */
  stop(): void;
  result: Promise<ChildSync>;
}

/** `node`: Node's flags and memory environment for the child (the container's: container-node.ts); default none. */
export function startChildSync(input: MeasuredSyncInput, apiKey: string, node: NodeSetup = { flags: [], env: {} }): ChildSyncHandle {
  const started = performance.now();
  const child = spawn(process.execPath, [...node.flags, CHILD, JSON.stringify(input)], {
    env: { ...process.env, ...node.env, BENCH_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sampler = sampleRss(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const result = new Promise<ChildSync>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - started;
      const sampledPeakRssKb = sampler.stop();
      const last = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve({ ...(JSON.parse(last) as MeasuredSync), wallMs, sampledPeakRssKb });
      } catch {
        reject(new Error(`bench sync child ended (code ${code}, signal ${signal}) without a result:\n${stderr}`));
      }
    });
  });
  return { pid: child.pid!, stop: () => child.kill('SIGTERM'), result };
}
