// Bad input, table-driven: every flag and config field with a wrong type or value gets one clear
// line naming it and exit 2; nothing is touched.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  tmp = tempDir();
});
afterAll(() => tmp.cleanup());

const env = () => cliEnv({ DOCS_API_KEY: 'mint_bad_input_key', DOCS_PROJECT_ID: 'demo', DOCS_API_BASE_URL: 'http://127.0.0.1:9', ORG_KEY: 'mint_bad_input_key' });

/** The human lines of stderr (logs are JSON lines). */
const humanLines = (stderr: string) => stderr.split('\n').filter((l) => l.trim() && !l.startsWith('{'));

async function expectUsage(args: string[], message: RegExp) {
  const r = await runCli(args, env());
  expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
  const lines = humanLines(r.stderr);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^docs-etl: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('flags', () => {
  it.each([
    [['sync', '--lookback', 'soon'], /--lookback .*invalid duration "soon"/],
    [['sync', '--from', '2026-13-45'], /--from .*expected a date/],
    [['sync', '--rate-limit', 'lots'], /--rate-limit .*invalid rate limit "lots"/],
    [['sync', '--max-wait', '-5m'], /--max-wait .*invalid duration/],
    [['sync', '--config', '/nonexistent/docs-etl.json'], /cannot read config file .*ENOENT/],
    [['sync', '--wat'], /unknown option '--wat'/],
    [['sync', 'extra-arg'], /too many arguments|unknown command/],
    [['status', '--max-age', 'old'], /--max-age .*invalid duration/],
    [['status', '--runs', '-1'], /--runs .*expected an integer from 0/],
    [['schedule', '--cron', 'every day'], /invalid cron expression/],
    [['schedule', '--cron', '0 2 * * *', '--timezone', 'Nowhere/Land'], /unknown time zone "Nowhere\/Land"/],
    [['schedule', '--cron', '0 2 * * *', '--static-export-cron', '0 3 * * *'], /--static-export-cron and --static-export-domain go together/],
    [['schedule', '--cron', '0 2 * * *', '--static-export-cron', 'nope', '--static-export-domain', 'docs.example.com'], /invalid cron expression for --static-export-cron/],
    [['sandbox', '--port', '99999'], /--port/],
    [['sandbox', '--conversations', '-5'], /--conversations/],
    [['sandbox', '--fault-rate', '2'], /--fault-rate/],
    [['sandbox', '--faults', 'gremlins'], /--faults/],
    [['sandbox', '--latency', 'slow'], /--latency/],
    [['export-parquet'], /required option '--out <dir>'/],
    [['export-parquet', '--out', 'x', '--full=yes'], /unknown option|too many arguments/],
    [['static-export'], /--domain|--job/],
    [['static-export', '--domain', 'https://docs.example.com/'], /domain/],
    [['static-export', '--domain', 'docs.example.com', '--paths', '/guides/start'], /--paths/],
    [['static-export', '--domain', 'docs.example.com', '--keep', '0'], /--keep/],
    [['static-export', '--domain', 'docs.example.com', '--timeout', 'forever'], /--timeout .*invalid duration/],
    [['demo', '--conversations', 'many'], /--conversations .*expected an integer/],
  ])('%j', async (args, message) => expectUsage(args, message));
});

describe('config file fields', () => {
  const project = { id: 'demo', apiKeyEnv: 'ORG_KEY' };
  it.each([
    [{ warehouse: 42, projects: [project] }, /warehouse: .*expected string/],
    [{ baseUrl: 'not a url', projects: [project] }, /baseUrl: /],
    [{ lookback: 'soon', projects: [project] }, /lookback: invalid lookback "soon"/],
    [{ rateLimit: 'lots', projects: [project] }, /rateLimit: invalid rate limit "lots"/],
    [{ maxWait: 5, projects: [project] }, /maxWait: .*expected string/],
    [{ budgetDir: '', projects: [project] }, /budgetDir: /],
    [{}, /projects: .*expected array/],
    [{ projects: [] }, /projects: list at least one project/],
    [{ projects: 'demo' }, /projects: .*expected array/],
    [{ projects: [{ id: '', apiKeyEnv: 'ORG_KEY' }] }, /projects\[0\]\.id: /],
    [{ projects: [project, { id: 'b', apiKeyEnv: 'has space' }] }, /projects\[1\]\.apiKeyEnv: expected an environment variable name/],
    [{ projects: [{ ...project, baseUrl: 'nope' }] }, /projects\[0\]\.baseUrl: /],
    [{ projects: [{ ...project, from: 'someday' }] }, /projects\[0\]\.from: expected a date/],
    [{ projects: [{ ...project, key: 'mint_inline' }] }, /projects\[0\]: .*key/],
    [{ colour: 'blue', projects: [project] }, /\(top level\): .*colour/],
    [{ projects: [{ id: 'demo', apiKeyEnv: 'UNSET_KEY_VARIABLE' }] }, /environment variable UNSET_KEY_VARIABLE \(config projects\[0\]\.apiKeyEnv\) is not set/],
  ])('%j', async (config, message) => {
    const file = join(tmp.dir, `c-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(config));
    await expectUsage(['sync', '--config', file, '--warehouse', join(tmp.dir, 'never.duckdb')], message);
    expect(existsSync(join(tmp.dir, 'never.duckdb'))).toBe(false);
  });

  it('malformed JSON is reported with the file and the parser message', async () => {
    const file = join(tmp.dir, 'broken.json');
    writeFileSync(file, '{ "projects": [ { "id": "demo", } ');
    await expectUsage(['sync', '--config', file], /config file .*broken\.json is not valid JSON/);
  });
});
