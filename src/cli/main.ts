// The only entry point: parses argv with commander, runs one command, maps every error to one
// clear line and an exit code (0 ok, 1 failed, 2 usage, 3 budget). The rules every command shares
// (--config, units in --help, LOG_LEVEL) are applied here (grammar.ts); a closed stdout
// (`docs-etl status | head -1`) ends the output quietly, never with a stack trace.
import { Command, CommanderError } from 'commander';
import { createLogger } from '../core/logger.js';
import { EXIT, exitCodeFor, messageOf, UsageError } from '../core/errors.js';
import { scrub, secretsOf } from '../core/secrets.js';
import { serverText } from '../core/server-text.js';
import type { CliContext } from './context.js';
import { commandsFor } from './commands/index.js';
import { acceptConfigFile, logLevelOf, showDurationDefaults } from './grammar.js';
import { unsupportedNode } from '../tools/doctor/node-support.js';
import { OutputClosed } from './closed-output.js';

export interface MainOptions {
  stdout?: CliContext['stdout'];
  stderr?: CliContext['stderr'];
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Install SIGTERM/SIGINT handlers (the real process); tests pass their own signal instead. */
  handleSignals?: boolean;
}

export async function main(argv: string[], opts: MainOptions = {}): Promise<number> {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  // The command's own copy: `--config` may fill in defaults without touching the caller's environment.
  const env = { ...(opts.env ?? process.env) };
  if (stdout === process.stdout) quietOnClosedPipe(process.stdout);
  if (stderr === process.stderr) quietOnClosedPipe(process.stderr);
  let level: string;
  try {
    level = logLevelOf(env);
  } catch (err) {
    stderr.write(`docs-etl: ${messageOf(err)}\n`);
    return EXIT.usage;
  }
  // Below package.json's engines.node: one warning line, not a refusal (node-support.ts says why).
  const oldNode = unsupportedNode(process.versions.node);
  if (oldNode) stderr.write(`docs-etl: warning: running on node ${process.versions.node}: ${oldNode}\n`);
  const controller = new AbortController();
  if (opts.signal) opts.signal.addEventListener('abort', () => controller.abort(), { once: true });
  const removeSignals = opts.handleSignals === false || opts.signal ? () => {} : installSignals(controller, stderr);
  const ctx: CliContext = {
    stdout, stderr, env, signal: controller.signal,
    logger: createLogger({ level, destination: stderr === process.stderr ? undefined : stderr }),
  };
  const secrets = secretsOf(env);

  let code: number = EXIT.ok;
  const program = new Command('docs-etl')
    .description('Incremental ETL from the documentation analytics and static export API into DuckDB and Parquet')
    .version(await packageVersion(), '-V, --version')
    .exitOverride()
    // Root options only before the command: `static-export --version 2026-11-01` is the export's flag.
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => stdout.write(s),
      writeErr: (s) => stderr.write(s),
      outputError: () => {},
    });
  for (const register of await commandsFor(argv.slice(2))) {
    const cmd = register(ctx, (c) => { code = c; });
    // Subcommands (`lake ddl`) too: usage errors become one line and exit 2, never process.exit.
    for (const c of [cmd, ...cmd.commands]) c.exitOverride().configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stderr.write(s), outputError: () => {} });
    acceptConfigFile(cmd, env, (m) => stderr.write(`docs-etl: warning: ${m}\n`));
    showDurationDefaults(cmd);
    program.addCommand(cmd);
  }
  try {
    await program.parseAsync(argv.slice(2).length ? argv : [...argv, '--help'], { from: 'node' });
  } catch (err) {
    code = report(err, stderr, secrets);
  } finally {
    removeSignals();
  }
  return code;
}

function report(err: unknown, stderr: NodeJS.WritableStream, secrets: string[]): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
    stderr.write(`docs-etl: ${err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')}\n`);
    return EXIT.usage;
  }
  // The reader of stdout went away (`| head`): it has what it wanted; quiet, exit 0 (closed-output.ts).
  if (err instanceof OutputClosed) return EXIT.ok;
  const code = exitCodeFor(err);
  const prefix = err instanceof UsageError ? 'docs-etl: ' : 'docs-etl: error: ';
  // One line, whatever the error quotes (a server's text, a path): no key, no escape sequences.
  stderr.write(`${prefix}${serverText(messageOf(err), secrets, 2000)}\n`);
  if (code === EXIT.failed && process.env.DOCS_ETL_DEBUG && err instanceof Error && err.stack) {
    stderr.write(`${scrub(err.stack, secrets)}\n`);
  }
  return code;
}

/**
 * A reader that went away (`| head -1`) closes the pipe: writes then fail with EPIPE, which would
 * otherwise surface as an uncaught error with a stack trace. Further output is dropped; the
 * command finishes (a sync still commits) and exits with its own code.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  if (stream.listenerCount('error') > 0) return;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
    throw err;
  });
}

/** First signal: abort (the run stops at its checkpoint). Second: exit at once; transactions keep the data right. */
function installSignals(controller: AbortController, stderr: NodeJS.WritableStream): () => void {
  const onSignal = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      stderr.write(`docs-etl: second ${sig}, exiting now\n`);
      process.exit(130);
    }
    stderr.write(`docs-etl: ${sig} received, stopping at the next checkpoint (send again to exit now)\n`);
    controller.abort();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}

async function packageVersion(): Promise<string> {
  const { PACKAGE_ROOT } = await import('../core/paths.js');
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile(`${PACKAGE_ROOT}/package.json`, 'utf8')).version as string;
}
