// How the CLI's Node is set up, read from the repository's own files (the one source of each): the
// launcher's flags and environment from its shebang (bin/docs-etl.js, `#!/usr/bin/env -S … node …`), and the
// container's from its Dockerfile (an ENTRYPOINT that is the launcher, or `node …flags script`, and
// the glibc settings its ENV sets). The bench runs its full syncs this way; the launcher and
// container-entrypoint tests check that the flags start the CLI.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * The launcher's shebang `#!/usr/bin/env -S [NAME=value …] node [flags …]`: how the installed
 * `docs-etl` runs (its environment assignments and Node's flags).
 */
export function launcherNode(text = readFileSync(repoFile('bin/docs-etl.js'), 'utf8')): NodeSetup {
  const first = text.split('\n')[0] ?? '';
  const m = /^#!\/usr\/bin\/env -S ((?:[A-Z_][A-Z0-9_]*=\S+ )*)node((?: --?[\w-]+(?:=\S+)?)*)\s*$/.exec(first);
  if (!m) throw new Error(`the launcher's shebang is not "#!/usr/bin/env -S [NAME=value …] node [flags …]": ${first}`);
  const env = Object.fromEntries(m[1]!.trim().split(/\s+/).filter(Boolean).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
  return { flags: m[2]!.trim() ? m[2]!.trim().split(/\s+/) : [], env };
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
