// Issue 19, item 8: fail fast, say it once. A 401 stops the organization after one request; a
// project whose every endpoint 404s stops after one request; a 404 on one endpoint while another
// endpoint of the project answered names that endpoint and stops that pipeline only.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_failfast_key_1';
const ALL = 'assistant_conversations,feedback,page_views,page_visitors,searches,assistant_callers,feedback_by_page';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir('docs-etl-failfast-');
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 300, historyDays: 3, seed: 8, missingEndpoints: { demo: ['/searches'] } }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = (extra: Record<string, string> = {}) => cliEnv({
  DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: ALL, LOG_LEVEL: 'silent',
  DOCS_ETL_BUDGET_DIR: join(tmp.dir, 'budget'), ...extra,
});
const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('docs-etl: error:'));

it('a wrong key: one request for the whole organization, one error line, every stream failed', async () => {
  const before = sb.requestLog('mint_wrong_key_000000001').length;
  const r = await runCli(['sync', '--warehouse', join(tmp.dir, 'k.duckdb'), '--from', '2026-01-01'], env({ DOCS_API_KEY: 'mint_wrong_key_000000001' }));
  expect(r.code).toBe(1);
  expect(sb.requestLog('mint_wrong_key_000000001').length - before).toBe(1);
  expect(errorLines(r.stderr)).toEqual(['docs-etl: error: demo: the API key was rejected (401): check DOCS_API_KEY']);
  // Issue 33, item 9: the 401 is said on one line of the output; the organization's other streams
  // are listed once as not read, not each with the 401 text.
  const lines = r.stdout.split('\n');
  expect(lines.filter((l) => l.includes('401'))).toEqual([expect.stringMatching(/^demo\/\w+: failed .*the API key was rejected \(401\): check DOCS_API_KEY$/)]);
  const notRead = lines.filter((l) => l.includes('not read'));
  expect(notRead).toHaveLength(1);
  expect(notRead[0]).toMatch(/: not read \(the key was rejected\)$/);
  const first = /^demo\/(\w+): failed/.exec(lines.find((l) => l.includes('401'))!)![1]!;
  const listed = notRead[0]!.replace(/: not read.*$/, '').split(', ');
  expect(listed.sort()).toEqual(ALL.split(',').filter((p) => p !== first).map((p) => `demo/${p}`).sort());
});

it('an unknown project: one request, one line', async () => {
  const before = sb.requestLog(KEY).length;
  const r = await runCli(['sync', '--warehouse', join(tmp.dir, 'p.duckdb'), '--project', 'nope'], env());
  expect(r.code).toBe(1);
  expect(sb.requestLog(KEY).length - before).toBe(1);
  expect(errorLines(r.stderr)).toEqual(['docs-etl: error: nope: project "nope" was not found (404): check the project id']);
});

it('one endpoint 404 while the others answer: that pipeline stops, named by its endpoint; the others sync', async () => {
  const r = await runCli(['sync', '--warehouse', join(tmp.dir, 'e.duckdb')], env());
  expect(r.code).toBe(1);
  expect(errorLines(r.stderr)).toEqual([
    'docs-etl: error: demo: GET /v1/analytics/demo/searches answered 404: the project may not have this export; leave it out with --pipelines',
  ]);
  expect(sb.requestLog(KEY).filter((x) => x.path.endsWith('/searches'))).toHaveLength(1);
  for (const p of ALL.split(',').filter((x) => x !== 'searches')) expect(r.stdout).toMatch(new RegExp(`^demo/${p}: succeeded`, 'm'));
});
