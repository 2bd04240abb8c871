// The Node flags the CLI runs with. V8 sizes and keeps its heap by flags it reads only when Node
// starts: Node refuses `--optimize-for-size` in NODE_OPTIONS, and V8 ignores both flags set at run
// time (docs/performance.md, eighth round). So the launcher carries them in its shebang,
// `#!/usr/bin/env -S node --optimize-for-size --max-semi-space-size=1` (bin/docs-etl.js; the
// container's entrypoint is that launcher): the installed `docs-etl` starts with them in its own
// process, with no second Node process to pay for. test/cli/launcher-flags.test.ts keeps the
// shebang and this list equal.
//
// What they buy (docs/performance.md, ninth round): a full sync's peak RSS at 4M turns about
// 400 -> 300 MB, for about 30% more CPU time in the sync, which under the API's budget waits on
// requests, not on the CPU.

/** V8's memory flags of the launcher, in its order. */
export const MEMORY_FLAGS: readonly string[] = ['--optimize-for-size', '--max-semi-space-size=1'];

/** Whether this process was started with every one of MEMORY_FLAGS (through the launcher or by hand). */
export function memoryFlagsOn(execArgv: readonly string[] = process.execArgv): boolean {
  return MEMORY_FLAGS.every((f) => execArgv.includes(f));
}
