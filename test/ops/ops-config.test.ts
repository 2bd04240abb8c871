// Issue 36: bad operations settings are one clear line and exit 2, before any run; the webhook URL
// (a secret) is named by its variable, never quoted.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-ops-config-');
afterAll(() => tmp.cleanup());
const env = (extra: Record<string, string> = {}) => cliEnv({ DOCS_API_BASE_URL: 'http://127.0.0.1:9', DOCS_API_KEY: 'mint_ops_cfg_key', DOCS_PROJECT_ID: 'demo', ...extra });

it('a bad --metrics-listen, a bad freshness, a missing or malformed webhook variable: one line, exit 2', { timeout: 120_000 }, async () => {
  const wh = join(tmp.dir, 'w.duckdb');
  const listen = await runCli(['schedule', '--warehouse', wh, '--metrics-listen', 'localhost:99999'], env());
  expect(listen.code).toBe(2);
  expect(listen.stderr).toMatch(/^docs-etl: --metrics-listen: expected HOST:PORT, :PORT or PORT \(port 0 picks one\), got "localhost:99999"\n$/);
  const config = (body: object) => {
    const p = join(tmp.dir, `c${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(p, JSON.stringify({ projects: [{ id: 'demo', apiKeyEnv: 'DOCS_API_KEY' }], ...body }));
    return p;
  };
  const fresh = await runCli(['sync', '--warehouse', wh, '--config', config({ freshness: { assistant_conversations: 'soon' } })], env());
  expect(fresh.code).toBe(2);
  expect(fresh.stderr).toMatch(/^docs-etl: config file .*: freshness\.assistant_conversations: .*\n$/);
  const hooks = config({ alerts: [{ urlEnv: 'OPS_HOOK', format: 'json' }] });
  const unset = await runCli(['sync', '--warehouse', wh, '--config', hooks], env());
  expect(unset.code).toBe(2);
  expect(unset.stderr).toBe('docs-etl: environment variable OPS_HOOK (config alerts[0].urlEnv) is not set\n');
  const malformed = await runCli(['sync', '--warehouse', wh, '--config', hooks], env({ OPS_HOOK: 'ftp://hooks.example/s3cr3t' }));
  expect(malformed.code).toBe(2);
  expect(malformed.stderr).toBe('docs-etl: environment variable OPS_HOOK (config alerts[0].urlEnv) is not an http(s) URL\n');
  expect(malformed.stdout + malformed.stderr).not.toContain('s3cr3t');
});
