// One CLI grammar for every command: --config everywhere, durations with a unit (and shown with one
// in --help), LOG_LEVEL checked, quiet EPIPE, bad project ids and future dates refused (exit 2).
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { filledWarehouseFile } from '../lake/lake-fixture.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { publishForReaders } from '../helpers/publish.js';

const COMMANDS = ['sync', 'status', 'schedule', 'export-parquet', 'static-export', 'sandbox', 'demo', 'doctor', 'init'];
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
beforeAll(async () => {
  tmp = tempDir('docs-etl-grammar-');
  warehouse = join(tmp.dir, 'w.duckdb');
  await filledWarehouseFile(warehouse, { days: 2, turnsPerDay: 3 });
  await publishForReaders(warehouse);
});
afterAll(() => tmp.cleanup());

function sink(): Writable & { text: () => string } {
  let out = '';
  const w = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } });
  return Object.assign(w, { text: () => out });
}

/** In-process: no API is reachable (port 9), so nothing here may depend on one. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(['node', 'docs-etl', ...args], {
    stdout, stderr, signal: new AbortController().signal,
    env: { LOG_LEVEL: 'silent', DOCS_API_BASE_URL: 'http://127.0.0.1:9', DOCS_API_KEY: 'mint_grammar', ...env },
  });
  return { code, out: stdout.text(), err: stderr.text() };
}

function configFile(name: string, content: unknown): string {
  const path = join(tmp.dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

/** Exit 2 with exactly one `docs-etl: …` line on stderr matching `message`. */
function expectUsage(r: { code: number; err: string }, message: RegExp): void {
  expect(r.code, r.err).toBe(2);
  expect(r.err.trim().split('\n'), r.err).toHaveLength(1);
  expect(r.err).toMatch(/^docs-etl: /);
  expect(r.err).toMatch(message);
}

describe('one CLI grammar', () => {
  it.each(COMMANDS)('%s takes --config and checks the file (exit 2 when it is bad)', async (command) => {
    const help = await cli([command, '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--config <file>/);
    const bad = join(tmp.dir, 'not-json.json');
    writeFileSync(bad, '{ "projects": [');
    const extra = command === 'export-parquet' ? ['--out', join(tmp.dir, 'lake-bad')] : [];
    if (command === 'init') return; // init writes the file --config names; covered in init.test.ts
    if (command === 'doctor') {
      // The doctor reports a bad config as one of its findings (✗ with the fix), then checks the rest.
      const r = await cli([command, '--config', bad, '--warehouse', join(tmp.dir, 'never.duckdb')]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^✗ config: config file .*not-json\.json is not valid JSON: .* → fix: /);
      return;
    }
    expectUsage(await cli([command, '--config', bad, ...extra]), /config file .*not-json\.json is not valid JSON/);
  });

  it('a command with nothing else to read from the config takes its warehouse (after the flag and DOCS_ETL_WAREHOUSE)', async () => {
    const config = configFile('wh', { warehouse, projects: [{ id: 'acme', apiKeyEnv: 'ACME_KEY' }] });
    const lake = join(tmp.dir, 'lake');
    const r = await cli(['export-parquet', '--out', lake, '--config', config]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/partition\(s\) written/);
    const status = await cli(['status', '--config', config]);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toContain(warehouse);
    const missing = join(tmp.dir, 'elsewhere.duckdb');
    const env = await cli(['status', '--config', config], { DOCS_ETL_WAREHOUSE: missing });
    expect(env.code).toBe(1);
    expect(env.err).toContain(missing);
  });

  it.each([
    [['sync', '--lookback', '24'], /--lookback .*invalid duration "24": a duration needs a unit, e.g. 24s, 24m or 24h/],
    [['sync', '--max-wait', '900'], /--max-wait .*needs a unit/],
    [['sync', '--rate-limit', '100/3600'], /--rate-limit .*needs a unit/],
    [['status', '--max-age', '26'], /--max-age .*needs a unit/],
    [['static-export', '--domain', 'docs.example.com', '--timeout', '30'], /--timeout .*needs a unit/],
    [['sandbox', '--latency', '50'], /--latency .*needs a unit/],
  ])('a bare number is not a duration: %j exits 2 with a hint', async (args, message) => {
    expectUsage(await cli(args), message);
  });

  it('a bare number in the config file is refused with its field', async () => {
    const config = configFile('bare', { lookback: '24', projects: [{ id: 'acme', apiKeyEnv: 'ACME_KEY' }] });
    expectUsage(await cli(['sync', '--config', config], { ACME_KEY: 'mint_acme' }), /: lookback: invalid lookback "24": a duration needs a unit/);
  });

  it('--help shows every duration default with its unit', async () => {
    for (const command of COMMANDS) {
      const help = (await cli([command, '--help'])).out;
      // One entry per option, its wrapped description lines joined.
      const entries = help.split(/\n(?= {2}-)/).map((e) => e.replace(/\s+/g, ' '));
      for (const e of entries.filter((x) => x.includes('<duration>'))) {
        const def = /\(default: ([^)]+)\)/.exec(e)?.[1];
        if (def !== undefined) expect(def, `${command}: ${e}`).toMatch(/^(\d+(ms|s|m|h|d))+$|^none$/);
      }
    }
    expect((await cli(['status', '--help'])).out.replace(/\s+/g, ' ')).toContain('how recent the last run must be (default: 26h)');
  });

  it('a bad LOG_LEVEL is exit 2 in one line for every command, --help included; any case of a real level works', async () => {
    for (const args of [['--help'], ...COMMANDS.map((c) => [c, '--help']), ['status', '--warehouse', warehouse]]) {
      const r = await cli(args, { LOG_LEVEL: 'loud' });
      expectUsage(r, /^docs-etl: LOG_LEVEL "loud" is not a log level: use one of fatal, error, warn, info, debug, trace, silent\n$/);
      expect(r.out).toBe('');
    }
    expect((await cli(['status', '--warehouse', warehouse], { LOG_LEVEL: 'WARN' })).code).toBe(0);
  });

  it.each([
    [['sync', '--project', '..'], /invalid project id "\.\." \(--project\): it is a path segment/],
    [['sync', '--project', '.'], /invalid project id "\." \(--project\)/],
    [['sync', '--project', 'acme/docs'], /invalid project id "acme\/docs" \(--project\): it contains a slash/],
    [['sync', '--project', 'ac\u0001me'], /it contains a control character/],
  ])('project id %j is refused before any request (exit 2)', async (args, message) => {
    expectUsage(await cli([...args, '--warehouse', join(tmp.dir, 'never.duckdb')]), message);
  });

  it('DOCS_PROJECT_ID and config ids are checked the same way; an unknown --project names the config\'s projects', async () => {
    expectUsage(await cli(['sync', '--warehouse', join(tmp.dir, 'never.duckdb')], { DOCS_PROJECT_ID: '..' }), /invalid project id "\.\." \(DOCS_PROJECT_ID\)/);
    const dots = configFile('dots', { projects: [{ id: '..', apiKeyEnv: 'ACME_KEY' }] });
    expectUsage(await cli(['sync', '--config', dots], { ACME_KEY: 'mint_acme' }), /: projects\[0\]\.id: invalid project id "\.\."/);
    const two = configFile('two', { projects: [{ id: 'acme', apiKeyEnv: 'ACME_KEY' }, { id: 'beta', apiKeyEnv: 'ACME_KEY' }] });
    expectUsage(await cli(['sync', '--config', two, '--project', 'acmee'], { ACME_KEY: 'mint_acme' }), /project "acmee" is not in config file .* \(its projects: acme, beta\)/);
  });

  it('export-parquet --project unknown exits 2 naming the known projects, and writes nothing', async () => {
    const lake = join(tmp.dir, 'lake-unknown');
    expectUsage(await cli(['export-parquet', '--out', lake, '--warehouse', warehouse, '--project', 'acmee']),
      /unknown project "acmee" in warehouse .*: known projects are acme, beta, docs\/ü b/);
    expect(existsSync(lake)).toBe(false);
  });

  it('a --from in the future, or a config from in the future, is exit 2', async () => {
    expectUsage(await cli(['sync', '--project', 'acme', '--from', '2999-01-01', '--warehouse', join(tmp.dir, 'never.duckdb')]),
      /--from 2999-01-01T00:00:00.000Z is in the future/);
    const future = configFile('future', { projects: [{ id: 'acme', apiKeyEnv: 'ACME_KEY', from: '2999-01-01' }] });
    expectUsage(await cli(['sync', '--config', future], { ACME_KEY: 'mint_acme' }), /config projects\[0\]\.from 2999-01-01T00:00:00.000Z is in the future/);
  });

  it('a config time zone must be an IANA name', async () => {
    const mars = configFile('mars', { projects: [{ id: 'acme', apiKeyEnv: 'ACME_KEY', timezone: 'Mars/Olympus' }] });
    expectUsage(await cli(['sync', '--config', mars], { ACME_KEY: 'mint_acme' }), /: projects\[0\]\.timezone: unknown time zone "Mars\/Olympus"/);
  });

  it.each([['--help'], ['status']])('a closed stdout (docs-etl %s | head -1) ends quietly: no stack trace, exit 0', async (command) => {
    const args = command === 'status' ? ['status', '--warehouse', warehouse] : [command];
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv({ LOG_LEVEL: 'warn' }), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the first write
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
