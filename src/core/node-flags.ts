// The memory settings the CLI's process runs with. Both are read only when the process starts:
// glibc reads MALLOC_ARENA_MAX at its first allocation, and V8 sizes and keeps its heap by flags
// Node passes it at start (Node refuses `--optimize-for-size` in NODE_OPTIONS, and V8 ignores both
// flags set at run time: docs/performance.md, eighth round). So the launcher carries them in its
// shebang, `#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --optimize-for-size --max-semi-space-size=1`
// (bin/docs-etl.js; the container's entrypoint is that launcher): the installed `docs-etl` starts
// with them in its own process, with no second Node process to pay for. The shebang sets the
// variable whatever the caller's environment says; to choose another value, start node yourself.
// test/cli/launcher-flags.test.ts keeps the shebang and these lists equal.
//
// What they buy (docs/performance.md, ninth round): a full sync's peak RSS at 4M turns about
// 400 -> under 300 MB, for about 30% more CPU time in the sync, which under the API's budget
// waits on requests, not on the CPU.

/** glibc keeps an arena of freed memory per thread (DuckDB's threads): two at most. */
export const MEMORY_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** V8's memory flags of the launcher, in its order. */
export const MEMORY_FLAGS: readonly string[] = ['--optimize-for-size', '--max-semi-space-size=1'];

const ASSIGNMENTS = Object.entries(MEMORY_ENV).map(([k, v]) => `${k}=${v}`).join(' ');

/** Both lists as one line of text: `MALLOC_ARENA_MAX=2 --optimize-for-size …`. */
export const MEMORY_SETTINGS = `${ASSIGNMENTS} ${MEMORY_FLAGS.join(' ')}`;

/** The command that starts node with them, for a shell: `MALLOC_ARENA_MAX=2 node --optimize-for-size …`. */
export const MEMORY_NODE_COMMAND = `${ASSIGNMENTS} node ${MEMORY_FLAGS.join(' ')}`;

/** The launcher's shebang line. */
export const LAUNCHER_SHEBANG = `#!/usr/bin/env -S ${MEMORY_NODE_COMMAND}`;

/**
 * Whether this process was started with every one of MEMORY_FLAGS and with the variables of
 * MEMORY_ENV set (to any value: someone who sets their own chose it).
 */
export function memorySettingsOn(execArgv: readonly string[] = process.execArgv, env: NodeJS.ProcessEnv = process.env): boolean {
  return MEMORY_FLAGS.every((f) => execArgv.includes(f)) && Object.keys(MEMORY_ENV).every((k) => env[k] !== undefined && env[k] !== '');
}
