// How the CLI's Node is set up: the launcher's memory settings (src/core/node-flags.ts, of which its
// shebang is made), and the container's, read from the Dockerfile (an ENTRYPOINT that is the
// launcher, or `node …flags script`, and the glibc settings its ENV sets). The bench runs its full
// syncs this way; the launcher and container-entrypoint tests check that the settings start the CLI.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEMORY_ENV, MEMORY_FLAGS } from '../../src/core/node-flags.js';

export interface NodeSetup {
  /** Node's own flags, before the script. */
  flags: string[];
  /** Environment the image sets for the process's memory (MALLOC_*). */
  env: Record<string, string>;
}

/** The container's path of the launcher, as the Dockerfile copies it. */
const IMAGE_LAUNCHER = '/app/bin/docs-etl.js';

/** A file of the repository this file is in (found upwards: source or build output). */
export function repoFile(name: string, from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const p = join(dir, name);
    if (existsSync(p) && existsSync(join(dir, 'package.json'))) return p;
    if (dirname(dir) === dir) throw new Error(`no ${name} above ${from}`);
  }
}

/**
 * How the installed `docs-etl` runs: the launcher's shebang is made of these lists
 * (test/cli/launcher-flags.test.ts keeps it so).
 */
export function launcherNode(): NodeSetup {
  return { flags: [...MEMORY_FLAGS], env: { ...MEMORY_ENV } };
}

/**
 * The Dockerfile's exec-form ENTRYPOINT and `ENV MALLOC_…=…`: `["/app/bin/docs-etl.js"]` runs the
 * launcher (its shebang's flags), `["node", …flags, script]` gives the flags itself.
 */
export function containerNode(text = readFileSync(repoFile('Dockerfile'), 'utf8'), launcher = launcherNode()): NodeSetup & { script: string } {
  const line = /^ENTRYPOINT (\[.*\])$/m.exec(text);
  if (!line) throw new Error('the Dockerfile has no exec-form ENTRYPOINT');
  const argv = JSON.parse(line[1]!) as string[];
  const env: Record<string, string> = {};
  for (const m of text.matchAll(/^ENV (MALLOC_[A-Z_]+)=(\S+)$/gm)) env[m[1]!] = m[2]!;
  // The Dockerfile's ENV is the process's environment; the shebang's assignments are set over it.
  if (argv[0] === IMAGE_LAUNCHER) return { flags: launcher.flags, script: IMAGE_LAUNCHER, env: { ...env, ...launcher.env } };
  if (argv[0] !== 'node' || argv.length < 2) throw new Error(`the ENTRYPOINT is neither the launcher nor node and a script: ${line[1]}`);
  return { flags: argv.slice(1, -1), script: argv.at(-1)!, env };
}
