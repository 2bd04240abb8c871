// Every command but `sandbox` and `demo` runs without loading the sandbox's data generator and
// server: they are the CLI's largest modules (about 4 MB of V8 heap that a sync, or the container's
// health check every 5 minutes, would otherwise carry for nothing). And a command line loads the one
// command it names (src/cli/commands/index.ts): `query` and `status` start without the sync's topic
// step, the lake's Iceberg writer, the static export or the scheduler (about 0.8 s of start-up per
// process), `--version` without any command. Real CLI process; the modules it loads are listed by a
// module-resolution hook.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = tempDir('docs-etl-lazy-');
afterAll(() => tmp.cleanup());

const hooks = join(tmp.dir, 'hooks.mjs');
writeFileSync(hooks, `export async function resolve(spec, ctx, next) {
  const r = await next(spec, ctx);
  if (r.url.includes('/dist/src/')) process.stderr.write('loaded ' + r.url.replace(/.*\\/dist\\//, '') + '\\n');
  else if (r.url.includes('/node_modules/')) process.stderr.write('loaded ' + r.url.replace(/.*\\/node_modules\\//, 'node_modules/') + '\\n');
  return r;
}\n`);
const register = join(tmp.dir, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** The CLI's own modules a run of `args` loads. */
function loaded(args: string[], exitCode = 0, env: Record<string, string> = {}): string[] {
  const r = spawnSync(process.execPath, ['--import', register, join(ROOT, 'bin', 'docs-etl.js'), ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.status, r.stderr).toBe(exitCode);
  return r.stderr.split('\n').filter((l) => l.startsWith('loaded ')).map((l) => l.slice(7));
}

describe('the CLI loads what a command needs', () => {
  it('`status --help` loads the CLI but neither the sandbox generator, its server nor the demo', () => {
    const mods = loaded(['status', '--help']);
    expect(mods).toContain('src/cli/main.js');
    expect(mods).toContain('src/cli/commands/status.js');
    expect(mods.filter((m) => /tools\/sandbox\/(server|corpus|conversation-factory|dataset)\.js$|tools\/demo\/run-demo\.js$/.test(m))).toEqual([]);
  });

  // The read surface names its files with the lake's layout helpers (a known exception of the layers): light.
  const HEAVY = /^src\/(outputs\/topics\/|outputs\/lake\/iceberg\/|outputs\/lake\/export-lake\.js|static-export\/|cron\/scheduler\.js|cli\/commands\/sync\.js)/;

  it.each([['query', '--help'], ['status', '--help']])('`%s %s` loads its own command, none of the sync, lake, static export or scheduler', (...args) => {
    const mods = loaded(args);
    expect(mods).toContain(`src/cli/commands/${args[0]}.js`);
    expect(mods.filter((m) => HEAVY.test(m))).toEqual([]);
  });

  it('`--version` loads no command; `sync --help` loads its own', () => {
    expect(loaded(['--version']).filter((m) => m.startsWith('src/cli/commands/'))).toEqual(['src/cli/commands/index.js']);
    expect(loaded(['sync', '--help'])).toContain('src/cli/commands/sync.js');
  });

  // A usage error or `--help` of sync never loads the run (engine, DuckDB, undici, metrics, lake
  // writer: about 0.8 s of CPU per process); a run that passed its options does.
  const RUN = /^src\/(cli\/commands\/sync-action\.js|sync\/run\/sync\.js|warehouse\/warehouse\.js)$/;
  it('`sync --help`, a bad flag and a bad config load none of the run; a sync that parsed loads it', () => {
    expect(loaded(['sync', '--help']).filter((m) => RUN.test(m))).toEqual([]);
    expect(loaded(['sync', '--request-timeout', '0s'], 2).filter((m) => RUN.test(m))).toEqual([]);
    // A bad config is found before the run loads, too (the config reads no default from the engine,
    // the HTTP client or the webhook sender).
    const config = join(tmp.dir, 'bad-rate.json');
    writeFileSync(config, JSON.stringify({ projects: [{ id: 'acme', apiKeyEnv: 'ACME_KEY' }], rateLimit: 'x' }));
    expect(loaded(['sync', '--config', config, '--warehouse', join(tmp.dir, 'w.duckdb')], 2).filter((m) => RUN.test(m) || /^src\/sync\/api\/http\.js$|^src\/outputs\/alerts\/deliver\.js$/.test(m))).toEqual([]);
    // A dry run sends nothing: the closed port is never asked.
    const env = { DOCS_API_KEY: 'k', DOCS_API_BASE_URL: 'http://127.0.0.1:9', DOCS_ETL_BUDGET_DIR: join(tmp.dir, 'budget') };
    const run = loaded(['sync', '--dry-run', '--project', 'p', '--warehouse', join(tmp.dir, 'w.duckdb')], 0, env);
    expect(run).toContain('src/cli/commands/sync-action.js');
    // A sync with no metrics file, no lake and no TTY loads neither prom-client, the lake's Avro
    // writer nor the progress line (about 0.16 s of CPU on every scheduled run).
    expect(run.filter((m) => /^node_modules\/(prom-client|avsc|cli-progress)\//.test(m))).toEqual([]);
  });

  // The other commands that open the warehouse or call the API check their flags, config and
  // environment first too: a usage error (exit 2) loads neither DuckDB (its binding, not only its
  // SQL quoting), nor the HTTP client, nor the command's run (about 0.7 s of CPU per process, once
  // per case of test/reliability/bad-input.test.ts); a command line that passed them does.
  const DUCKDB = 'node_modules/@duckdb/node-api/lib/index.js';
  const runOf = (command: string) => new RegExp(`^(src/cli/commands/${command}-action\\.js|src/sync/run/sync\\.js|src/static-export/run\\.js|${DUCKDB.replace(/[./]/g, '\\$&')}|node_modules/undici/index\\.js)$`);
  const lake = () => join(tmp.dir, 'lake');
  // Each case is the command's last check before its run loads: every check before it is light too.
  it.each<[string, string[]]>([
    ['status', ['--warehouse', '']], ['export-parquet', ['--warehouse', '', '--out', 'LAKE']], ['static-export', ['--job', 'bad id']],
    ['schedule', ['--static-export-cron', '0 3 * * *']], ['topics', ['--topic-period', '30d']], ['doctor', ['--project', '..']],
    ['report', ['--out', '']], ['rebuild', ['--bogus']], ['reset', ['--bogus']],
  ])('`%s %j` (a usage error) loads none of its run', (command, args) => {
    const mods = loaded([command, ...args.map((a) => (a === 'LAKE' ? lake() : a))], 2, { DOCS_API_KEY: 'k', DOCS_PROJECT_ID: 'p', XDG_STATE_HOME: join(tmp.dir, 'state') });
    expect(mods).toContain(`src/cli/commands/${command}.js`);
    expect(mods.filter((m) => runOf(command).test(m))).toEqual([]);
  });

  it('a command line that passed its checks loads its run', () => {
    const missing = join(tmp.dir, 'missing.duckdb');
    expect(loaded(['status', '--warehouse', missing], 1)).toEqual(expect.arrayContaining(['src/cli/commands/status-action.js', DUCKDB]));
    expect(loaded(['export-parquet', '--warehouse', missing, '--out', lake()], 1)).toEqual(expect.arrayContaining(['src/cli/commands/export-parquet-action.js', DUCKDB]));
    expect(loaded(['topics', '--warehouse', missing], 1)).toEqual(expect.arrayContaining(['src/cli/commands/topics-action.js', DUCKDB]));
  });
});
