// Runs the built CLI (dist/, built by the test command) as a real child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const BIN = fileURLToPath(new URL('../../bin/docs-etl.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// The per-user state folder (the default budget, config/budget-dir.ts) of the children: never the
// real home. One folder per test, shared by the processes of that test (as the budget beside each
// test's warehouse was before), so tests neither share a budget nor write into ~/.local/state. They
// live in the test file's temp folder (state-home-setup.ts), removed after the file.
const stateHomes = new Map<string, string>();

/** The XDG_STATE_HOME of the current test (outside a test: of the test file). */
export function testStateHome(): string {
  const root = process.env.DOCS_ETL_TEST_STATE_HOME;
  if (!root) throw new Error('test/helpers/state-home-setup.ts is not a setup file of this vitest config');
  const name = expect.getState().currentTestName ?? '';
  let dir = stateHomes.get(name);
  if (dir === undefined) {
    dir = join(root, 'cli', String(stateHomes.size));
    stateHomes.set(name, dir);
  }
  return dir;
}

// Node's compile cache for the children (a test harness setting, not the CLI's: the CLI writes
// nothing outside state/). The suite starts hundreds of CLI processes, each compiling the same ~300
// modules; with the cache each reads them compiled (about 70 ms of CPU less per process,
// measured on a sync). Keyed by file content and Node version, so a stale entry is never used.
const COMPILE_CACHE = join(tmpdir(), 'docs-etl-test-compile-cache');

/**
 * The child's environment: none of the developer's DOCS_* settings leak into a test. Syncs run the
 * assistant pipeline only unless a test asks for others (DOCS_PIPELINES): most tests are about how
 * one stream is read, counted and stopped; test/endpoints/ runs every pipeline.
 */
export function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('DOCS_') && k !== 'LOG_LEVEL') env[k] = v;
  return { ...env, LOG_LEVEL: 'info', DOCS_PIPELINES: 'assistant_conversations', XDG_STATE_HOME: testStateHome(), NODE_COMPILE_CACHE: COMPILE_CACHE, ...extra };
}

export interface SpawnOptions {
  /**
   * Start the launcher itself, as the installed `docs-etl` is started (its shebang runs the `node`
   * on PATH with the launcher's memory flags); default: `node bin/docs-etl.js`, Node's defaults.
   */
  launcher?: boolean;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv, opts: SpawnOptions = {}): ChildProcess & { result: Promise<CliResult> } {
  const child = opts.launcher
    ? spawn(BIN, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const result = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return Object.assign(child, { result });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, opts: SpawnOptions = {}): Promise<CliResult> {
  return spawnCli(args, env, opts).result;
}
