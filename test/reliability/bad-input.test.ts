// Bad input: every flag and config field with a wrong type or value gets one clear line naming it
// and exit 2, before any request or warehouse change. Table-driven: the first case of each command
// runs the built CLI (a real process: its exit code and stderr), the others the same `main`
// in-process (in-process-cli.ts: the same parsing and one-line error path, without ~120 Node starts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-bad-input-');
let api: Server;
let apiUrl = '';
let requests = 0;

beforeAll(async () => {
  // An API that refuses every key: a case that slipped through fails fast (exit 1), never hangs.
  api = createServer((_req, res) => {
    requests++;
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Invalid or expired API key"}');
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => api.close(r));
  tmp.cleanup();
});

const P = { id: 'acme', apiKeyEnv: 'ACME_KEY' };
/** A config file with this content (JSON-encoded unless a string). */
function config(name: string, content: unknown): string {
  mkdirSync(join(tmp.dir, 'configs'), { recursive: true });
  const path = join(tmp.dir, 'configs', `${name}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

type Case = [label: string, args: () => string[], message: RegExp];
const sync = (...a: string[]) => () => ['sync', '--warehouse', join(tmp.dir, 'w.duckdb'), ...a];
const withConfig = (name: string, content: unknown) => sync('--config', config(name, content));

const CASES: Case[] = [
  // sync flags
  ['--lookback word', sync('--lookback', 'abc'), /--lookback .*invalid duration "abc"/],
  ['--lookback negative', sync('--lookback', '-5h'), /--lookback .*invalid duration "-5h"/],
  ['--lookback empty', sync('--lookback', ''), /--lookback .*invalid duration ""/],
  ['--lookback no unit', sync('--lookback', '5x'), /--lookback .*invalid duration "5x"/],
  ['--lookback absurd', sync('--lookback', '999999999d'), /--lookback .*at most 36500d/],
  ['--lookback bare number', sync('--lookback', '24'), /--lookback .*a duration needs a unit, e\.g\. 24s, 24m or 24h/],
  ['--max-wait bare number', sync('--max-wait', '900'), /--max-wait .*a duration needs a unit/],
  ['--rate-limit bare window', sync('--rate-limit', '100/3600'), /--rate-limit .*a duration needs a unit/],
  ['--from in the future', sync('--from', '2999-01-01'), /--from 2999-01-01T00:00:00\.000Z is in the future/],
  ['--project ..', sync('--project', '..'), /invalid project id "\.\." \(--project\)/],
  ['--project with a slash', sync('--project', 'a/b'), /invalid project id "a\/b" \(--project\): it contains a slash/],
  ['--from word', sync('--from', 'yesterday'), /--from .*expected a date/],
  ['--from month 13', sync('--from', '2026-13-45'), /--from .*expected a date/],
  ['--from February 30', sync('--from', '2026-02-30'), /--from .*expected a date .*2026-02-30/],
  ['--from February 30 with a time', sync('--from', '2026-02-30T10:00:00Z'), /--from .*expected a date/],
  ['--from hour 25', sync('--from', '2026-01-01T25:00:00Z'), /--from .*expected a date/],
  ['--from empty', sync('--from', ''), /--from .*expected a date/],
  ['--rate-limit without window', sync('--rate-limit', '100'), /--rate-limit .*use REQUESTS\/WINDOW/],
  ['--rate-limit zero', sync('--rate-limit', '0/1h'), /--rate-limit .*both parts must be positive/],
  ['--rate-limit zero window', sync('--rate-limit', '100/0s'), /--rate-limit .*both parts must be positive/],
  ['--rate-limit fraction', sync('--rate-limit', '1.5/1h'), /--rate-limit .*use REQUESTS\/WINDOW/],
  ['--rate-limit word', sync('--rate-limit', 'abc/1h'), /--rate-limit .*use REQUESTS\/WINDOW/],
  ['--rate-limit huge count', sync('--rate-limit', '99999999999999999999/1h'), /--rate-limit .*too many requests/],
  ['--rate-limit huge window', sync('--rate-limit', '100/999999999999d'), /--rate-limit .*at most 36500d/],
  ['--max-wait word', sync('--max-wait', 'soon'), /--max-wait .*invalid duration "soon"/],
  ['--max-wait negative', sync('--max-wait', '-1m'), /--max-wait .*invalid duration/],
  ['--max-wait absurd', sync('--max-wait', '999999999999d'), /--max-wait .*at most 36500d/],
  ['--config missing file', sync('--config', '/nonexistent/docs-etl.json'), /cannot read config file .*ENOENT/],
  ['--config a directory', () => ['sync', '--config', tmp.dir], /cannot read config file .*EISDIR/],
  ['unknown flag', sync('--colour', 'red'), /unknown option '--colour'/],
  ['flag without its value', () => ['sync', '--warehouse'], /option '--warehouse <path>' argument missing/],
  ['--warehouse empty', () => ['sync', '--warehouse', ''], /--warehouse is empty/],
  ['--project empty', sync('--project', ''), /--project is empty/],
  ['extra argument', sync('now'), /too many arguments for 'sync'/],
  // config file
  ['config: malformed JSON', () => ['sync', '--config', config('malformed', '{"projects": [')], /config file .*malformed\.json is not valid JSON/],
  ['config: empty file', () => ['sync', '--config', config('empty', '')], /config file .*empty\.json is not valid JSON/],
  ['config: an array', () => ['sync', '--config', config('array', [])], /config file .*: \(top level\): .*expected object/],
  ['config: warehouse wrong type', withConfig('wh-type', { warehouse: 5, projects: [P] }), /: warehouse: .*expected string/],
  ['config: warehouse empty', withConfig('wh-empty', { warehouse: '', projects: [P] }), /: warehouse: .*>=1 characters/],
  ['config: baseUrl not a URL', withConfig('base', { baseUrl: 'not a url', projects: [P] }), /: baseUrl: /],
  ['config: baseUrl not http(s)', withConfig('base-ftp', { baseUrl: 'ftp://docs.example.com', projects: [P] }), /: baseUrl: expected an http\(s\) URL/],
  ['config: lookback bad', withConfig('lookback', { lookback: 'abc', projects: [P] }), /: lookback: invalid lookback "abc"/],
  ['config: lookback wrong type', withConfig('lookback-type', { lookback: 24, projects: [P] }), /: lookback: .*expected string/],
  ['config: rateLimit bad', withConfig('rate', { rateLimit: '100', projects: [P] }), /: rateLimit: invalid rate limit "100"/],
  ['config: rateLimit zero', withConfig('rate-zero', { rateLimit: '0/1h', projects: [P] }), /: rateLimit: .*both parts must be positive/],
  ['config: maxWait bad', withConfig('wait', { maxWait: 'x', projects: [P] }), /: maxWait: invalid max-wait "x"/],
  ['config: budgetDir wrong type', withConfig('budget', { budgetDir: 3, projects: [P] }), /: budgetDir: .*expected string/],
  ['config: budgetDir empty', withConfig('budget-empty', { budgetDir: '', projects: [P] }), /: budgetDir: /],
  ['config: projects missing', withConfig('projects-missing', {}), /: projects: .*expected array/],
  ['config: projects empty', withConfig('projects-empty', { projects: [] }), /: projects: list at least one project/],
  ['config: projects wrong type', withConfig('projects-type', { projects: 'acme' }), /: projects: .*expected array/],
  ['config: a project not an object', withConfig('project-type', { projects: [5] }), /: projects\[0\]: .*expected object/],
  ['config: project id empty', withConfig('id-empty', { projects: [{ ...P, id: '' }] }), /: projects\[0\]\.id: /],
  ['config: project id wrong type', withConfig('id-type', { projects: [{ ...P, id: 7 }] }), /: projects\[0\]\.id: .*expected string/],
  ['config: project id missing', withConfig('id-missing', { projects: [{ apiKeyEnv: 'ACME_KEY' }] }), /: projects\[0\]\.id: /],
  ['config: project listed twice', withConfig('id-twice', { projects: [P, { ...P, apiKeyEnv: 'OTHER_KEY' }] }), /: projects\[1\]\.id: project "acme" is listed twice/],
  ['config: apiKeyEnv not a variable name', withConfig('key-name', { projects: [{ ...P, apiKeyEnv: 'mint_abc-123' }] }), /: projects\[0\]\.apiKeyEnv: expected an environment variable name/],
  ['config: apiKeyEnv missing', withConfig('key-missing', { projects: [{ id: 'acme' }] }), /: projects\[0\]\.apiKeyEnv: /],
  ['config: apiKeyEnv not set', withConfig('key-unset', { projects: [{ ...P, apiKeyEnv: 'UNSET_DOCS_KEY' }] }), /environment variable UNSET_DOCS_KEY \(config projects\[0\]\.apiKeyEnv\) is not set/],
  ['config: project baseUrl bad', withConfig('p-base', { projects: [{ ...P, baseUrl: 'nope' }] }), /: projects\[0\]\.baseUrl: /],
  ['config: project from bad', withConfig('p-from', { projects: [{ ...P, from: 'yesterday' }] }), /: projects\[0\]\.from: expected a date/],
  ['config: project from February 30', withConfig('p-from-feb', { projects: [{ ...P, from: '2026-02-30' }] }), /: projects\[0\]\.from: expected a date/],
  ['config: project from wrong type', withConfig('p-from-type', { projects: [{ ...P, from: 20260101 }] }), /: projects\[0\]\.from: .*expected string/],
  ['config: lookback bare number', withConfig('lookback-bare', { lookback: '24', projects: [P] }), /: lookback: invalid lookback "24": a duration needs a unit/],
  ['config: project id ..', withConfig('id-dots', { projects: [{ ...P, id: '..' }] }), /: projects\[0\]\.id: invalid project id "\.\."/],
  ['config: project timezone unknown', withConfig('tz', { projects: [{ ...P, timezone: 'Mars/Olympus' }] }), /: projects\[0\]\.timezone: unknown time zone "Mars\/Olympus"/],
  ['config: project timezone wrong type', withConfig('tz-type', { projects: [{ ...P, timezone: 9 }] }), /: projects\[0\]\.timezone: .*expected string/],
  ['config: project from in the future', withConfig('p-from-future', { projects: [{ ...P, from: '2999-01-01' }] }), /config projects\[0\]\.from 2999-01-01T00:00:00\.000Z is in the future/],
  ['config: comments are fine, a broken file is not', () => ['sync', '--config', config('jsonc-broken', '// ok\n{ "projects": [ /* unterminated')], /config file .*jsonc-broken\.json is not valid JSON/],
  ['config: unknown field', withConfig('unknown', { projects: [P], colour: 'red' }), /: \(top level\): Unrecognized key: "colour"/],
  ['config: unknown project field (a key in the file)', withConfig('unknown-p', { projects: [{ ...P, apiKey: 'mint_x' }] }), /: projects\[0\]: Unrecognized key: "apiKey"/],
  ['config: --project not in the file', () => ['sync', '--config', config('ok', { projects: [P] }), '--project', 'other'], /project "other" is not in config file/],
  // status
  ['status --max-age bad', () => ['status', '--max-age', 'x'], /--max-age .*invalid duration "x"/],
  ['status --runs negative', () => ['status', '--runs', '-1'], /--runs .*expected an integer from 0 to 1000/],
  ['status --runs word', () => ['status', '--runs', 'abc'], /--runs .*expected an integer/],
  ['status --rate-limit bad', () => ['status', '--rate-limit', 'x'], /--rate-limit .*invalid rate limit/],
  ['status unknown flag', () => ['status', '--bogus'], /unknown option '--bogus'/],
  ['status --warehouse empty', () => ['status', '--warehouse', ''], /--warehouse is empty/],
  ['status --max-age bare number', () => ['status', '--max-age', '26'], /--max-age .*a duration needs a unit/],
  ['status --config bad', () => ['status', '--config', config('status-bad', '{')], /config file .*status-bad\.json is not valid JSON/],
  ['export-parquet --warehouse empty', () => ['export-parquet', '--warehouse', '', '--out', join(tmp.dir, 'lake')], /--warehouse is empty/],
  // schedule
  ['schedule --cron words', () => ['schedule', '--cron', 'nope'], /invalid cron expression for --cron "nope"/],
  ['schedule --cron 3 fields', () => ['schedule', '--cron', '* * *'], /invalid cron expression for --cron/],
  ['schedule --cron minute 61', () => ['schedule', '--cron', '61 * * * *'], /invalid cron expression for --cron "61 \* \* \* \*"/],
  ['schedule --timezone unknown', () => ['schedule', '--timezone', 'Mars/Base'], /unknown time zone "Mars\/Base"/],
  ['schedule --timezone empty', () => ['schedule', '--timezone', ''], /--timezone is empty/],
  ['schedule --lookback bad', () => ['schedule', '--lookback', 'x'], /--lookback .*invalid duration/],
  ['schedule static export half-configured', () => ['schedule', '--static-export-cron', '0 3 * * *'], /--static-export-cron and --static-export-domain go together/],
  ['schedule --static-export-cron bad', () => ['schedule', '--static-export-cron', 'nope', '--static-export-domain', 'docs.example.com'], /invalid cron expression for --static-export-cron/],
  ['schedule unknown flag', () => ['schedule', '--bogus'], /unknown option '--bogus'/],
  // sandbox
  ['sandbox --port word', () => ['sandbox', '--port', 'x'], /--port .*expected an integer/],
  ['sandbox --port too big', () => ['sandbox', '--port', '70000'], /--port .*from 0 to 65535/],
  ['sandbox --fault-rate above 1', () => ['sandbox', '--fault-rate', '2'], /--fault-rate .*from 0 to 1/],
  ['sandbox --faults unknown', () => ['sandbox', '--faults', 'boom'], /--faults .*unknown fault "boom"/],
  ['sandbox --rate-limit bad', () => ['sandbox', '--rate-limit', 'x'], /--rate-limit .*invalid rate limit/],
  ['sandbox --latency bad', () => ['sandbox', '--latency', 'x'], /--latency .*invalid duration/],
  ['sandbox --conversations negative', () => ['sandbox', '--conversations', '-1'], /--conversations .*from 0 to 1000000/],
  ['sandbox --api-key empty', () => ['sandbox', '--api-key', ''], /--api-key must not be empty/],
  ['sandbox unknown flag', () => ['sandbox', '--bogus'], /unknown option '--bogus'/],
  ['sandbox --host empty', () => ['sandbox', '--host', ''], /--host .*expected an interface/],
  // export-parquet
  ['export-parquet without --out', () => ['export-parquet'], /required option '--out <dir\|s3:\/\/bucket\/prefix>' not specified/],
  ['export-parquet --out empty', () => ['export-parquet', '--out', ''], /--out .*must not be empty/],
  ['export-parquet --project empty', () => ['export-parquet', '--out', join(tmp.dir, 'lake'), '--project', ''], /--project .*must not be empty/],
  ['export-parquet unknown flag', () => ['export-parquet', '--out', join(tmp.dir, 'lake'), '--bogus'], /unknown option '--bogus'/],
  ['export-parquet a value for a switch', () => ['export-parquet', '--out', join(tmp.dir, 'lake'), '--full=yes'], /unknown option|too many arguments/],
  // static-export
  ['static-export without --domain', () => ['static-export'], /--domain is required/],
  ['static-export --domain with a scheme', () => ['static-export', '--domain', 'https://docs.example.com/x'], /--domain "https:\/\/docs\.example\.com\/x" is not a hostname/],
  ['static-export --paths with a slash', () => ['static-export', '--domain', 'docs.example.com', '--paths', '/a.html'], /--paths entry "\/a\.html" is not a page path/],
  ['static-export --job bad', () => ['static-export', '--job', 'bad id'], /--job "bad id" is not a job id/],
  ['static-export --timeout bad', () => ['static-export', '--domain', 'docs.example.com', '--timeout', 'x'], /--timeout .*invalid duration/],
  ['static-export --keep zero', () => ['static-export', '--domain', 'docs.example.com', '--keep', '0'], /--keep .*from 1 to 10000/],
  ['static-export --poll-interval bad', () => ['static-export', '--domain', 'docs.example.com', '--poll-interval', 'x'], /--poll-interval .*invalid duration/],
  ['static-export unknown flag', () => ['static-export', '--bogus'], /unknown option '--bogus'/],
  // demo
  ['demo --conversations word', () => ['demo', '--conversations', 'many'], /--conversations .*expected an integer/],
  // doctor, init
  ['doctor --timeout bare number', () => ['doctor', '--timeout', '15'], /--timeout .*a duration needs a unit/],
  ['doctor --project ..', () => ['doctor', '--project', '..'], /invalid project id "\.\." \(--project\)/],
  ['init --out and --config differ', () => ['init', '--out', join(tmp.dir, 'a.json'), '--config', join(tmp.dir, 'b.json')], /--out and --config name different files/],
  // the program
  ['unknown command', () => ['synk'], /unknown command 'synk'/],
  ['unknown root flag', () => ['--bogus'], /unknown option '--bogus'/],
];

describe('bad input: one clear line, exit 2', () => {
  it(`every flag and config field (${CASES.length} cases)`, async () => {
    const env = cliEnv({ DOCS_API_BASE_URL: apiUrl, DOCS_API_KEY: 'mint_bad_input', DOCS_PROJECT_ID: 'acme', ACME_KEY: 'mint_acme', OTHER_KEY: 'mint_other' });
    const failures: string[] = [];
    const commands = new Set<string>();
    let processes = 0;
    for (let i = 0; i < CASES.length; i += 8) {
      await Promise.all(CASES.slice(i, i + 8).map(async ([label, args, message]) => {
        const argv = args();
        const command = argv[0]!.startsWith('-') ? '(program)' : argv[0]!;
        const real = !commands.has(command);
        commands.add(command);
        if (real) processes++;
        const r = await (real ? runCli : runMain)(argv, env);
        const lines = r.stderr.trim().split('\n').filter(Boolean);
        const ok = r.code === 2 && lines.length === 1 && /^docs-etl: /.test(lines[0]!) && message.test(lines[0]!) && !/^docs-etl: error:/.test(lines[0]!);
        if (!ok) failures.push(`${label}: exit ${r.code}, stderr ${JSON.stringify(r.stderr.slice(0, 400))}`);
      }));
    }
    expect(failures).toEqual([]);
    expect(processes).toBeGreaterThanOrEqual(10);
    // Nothing reached the API and no warehouse was created.
    expect(requests).toBe(0);
    expect(existsSync(join(tmp.dir, 'w.duckdb'))).toBe(false);
  }, 480_000); // a dozen CLI processes, 8 at a time, beside another file of the suite: a hang catcher with room
});
