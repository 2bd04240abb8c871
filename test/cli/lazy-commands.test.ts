// A command line loads the one command it names (src/cli/commands/index.ts): `query` and `status`
// start without the sync's topic step, the lake's Iceberg writer, the static export's archive
// reader or the scheduler, and `--version` without any command. Observed on the real CLI through
// Node's module hooks: every module the process resolves is recorded, then checked.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-lazy-');
afterAll(() => tmp.cleanup());

/** The modules (file URLs and package names) a CLI process loads for these arguments. */
function loadedBy(args: string[]): string[] {
  const log = join(tmp.dir, `${args.join('_').replace(/\W/g, '')}.log`);
  const hooks = join(tmp.dir, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}\n`);
  const register = join(tmp.dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...args], { env: cliEnv({}), encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

// The read surface names its files with the lake's layout helpers (a known exception of the layers): light.
const HEAVY = ['/dist/src/outputs/topics/', '/dist/src/outputs/lake/iceberg/', '/dist/src/outputs/lake/export-lake.js', '/dist/src/static-export/', '/dist/src/cron/scheduler.js', '/dist/src/cli/commands/sync.js'];

describe('the CLI loads only the command it runs', () => {
  it.each([['query', '--help'], ['status', '--help']])('%s %s: none of the sync, lake, static export or scheduler modules', (...args) => {
    const loaded = loadedBy(args);
    expect(loaded.some((u) => u.endsWith(`/dist/src/cli/commands/${args[0]}.js`))).toBe(true);
    expect(loaded.filter((u) => HEAVY.some((h) => u.includes(h)))).toEqual([]);
  }, 90_000);

  it('--version loads no command; sync loads its own', () => {
    expect(loadedBy(['--version']).filter((u) => u.includes('/dist/src/cli/commands/'))).toEqual([pathToFileURL(join(BIN, '../../dist/src/cli/commands/index.js')).href]);
    expect(loadedBy(['sync', '--help']).some((u) => u.includes('/dist/src/outputs/topics/'))).toBe(true);
  }, 90_000);
});
