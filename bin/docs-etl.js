#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --optimize-for-size --max-semi-space-size=1
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run by `npm ci` through `prepare`).
// The shebang gives Node the memory settings it reads only at start, glibc's arena count and V8's
// flags (src/core/node-flags.ts says why and what they buy): the installed `docs-etl`, and the
// container's entrypoint, run with them. `node bin/docs-etl.js …` runs without them (`docs-etl
// doctor` says so).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('docs-etl: not built yet; run `npm run build` (npm ci does it through `prepare`)\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
