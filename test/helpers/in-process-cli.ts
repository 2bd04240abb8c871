// Runs `docs-etl …args` through the CLI's own `main` in this process, with its own stdout, stderr
// and environment: the same parsing, command and one-line error path as the built CLI, without a
// Node start and DuckDB load (about 1 s of CPU) per run. For read-only commands a test runs many
// times; what only a process shows (signals, exit on a second signal, memory, the process listing)
// stays with runCli (cli.ts). The command reads `env`, never this process's own environment.
import { Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { CliResult } from './cli.js';

export async function runMain(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult & { code: number }> {
  const text = { stdout: '', stderr: '' };
  const sink = (k: keyof typeof text) => new Writable({ write(chunk, _enc, cb) { text[k] += String(chunk); cb(); } });
  const code = await main(['node', 'docs-etl', ...args], { stdout: sink('stdout'), stderr: sink('stderr'), env, signal: new AbortController().signal });
  return { code, signal: null, ...text };
}
