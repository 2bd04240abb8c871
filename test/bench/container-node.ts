// How the container image runs Node, read from the repository's Dockerfile (the one source): the
// flags its ENTRYPOINT passes to node and the glibc settings its ENV sets. The bench runs one full
// sync this way beside the default one; test/cli/container-entrypoint.test.ts checks the flags start
// the CLI.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NodeSetup {
  /** Node's own flags, before the script. */
  flags: string[];
  /** Environment the image sets for the process's memory (MALLOC_*). */
  env: Record<string, string>;
}

/** The Dockerfile of the repository this file is in (found upwards: source or build output). */
export function dockerfilePath(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const p = join(dir, 'Dockerfile');
    if (existsSync(p)) return p;
    if (dirname(dir) === dir) throw new Error(`no Dockerfile above ${from}`);
  }
}

/** `ENTRYPOINT ["node", …flags, "/app/bin/docs-etl.js"]` and `ENV MALLOC_…=…` of the Dockerfile. */
export function containerNode(text = readFileSync(dockerfilePath(), 'utf8')): NodeSetup & { script: string } {
  const line = /^ENTRYPOINT (\[.*\])$/m.exec(text);
  if (!line) throw new Error('the Dockerfile has no exec-form ENTRYPOINT');
  const argv = JSON.parse(line[1]!) as string[];
  if (argv[0] !== 'node' || argv.length < 2) throw new Error(`the ENTRYPOINT is not node and a script: ${line[1]}`);
  const env: Record<string, string> = {};
  for (const m of text.matchAll(/^ENV (MALLOC_[A-Z_]+)=(\S+)$/gm)) env[m[1]!] = m[2]!;
  return { flags: argv.slice(1, -1), script: argv.at(-1)!, env };
}
