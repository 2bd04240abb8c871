// `reset` counts the event time a person would (issue 34, item 6): a stream read to the start of
// its history counts from its oldest record, not from 1970. Real sandbox over HTTP, real CLI.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_reset_real_coverage_34';
let sb: Sandbox;
const tmp = tempDir('docs-etl-reset-coverage-');
beforeAll(async () => {
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 500, seed: 34 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

describe('reset', () => {
  it('counts coverage from the oldest record, not from 1970', async () => {
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
    const warehouse = join(tmp.dir, 'w.duckdb');
    const sync = await runCli(['sync', '--warehouse', warehouse], env);
    expect(sync.code, sync.stderr).toBe(0);
    const times = sb.truth('demo').map((t) => Date.parse(String(t.timestamp)));
    const historyDays = (Date.now() - Math.min(...times)) / 86_400_000;
    const r = await runCli(['reset', '--warehouse', warehouse, '--project', 'demo'], env);
    expect(r.code).toBe(2);
    const days = Number(/delete [\d,]+ rows, ([\d,]+) days of event time covered/.exec(r.stderr)?.[1]?.replaceAll(',', ''));
    expect(days, r.stderr).toBeGreaterThan(0);
    // The history's span and a few days (coverage reaches the head; measured 35 for 31): 20,785 before.
    expect(days).toBeLessThanOrEqual(Math.ceil(historyDays) + 7);
  });
});
