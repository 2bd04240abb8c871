// The service recipe docs/scheduling.md documents, run as written (its bin path pointed at this
// checkout): the launcher itself, whose shebang execs node with the memory settings in the same
// process, so systemd's SIGTERM reaches the scheduler, and it must exit 0, not 143 as it does
// through npx.
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_service_recipe_key_1';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir();
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 500 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

/** Words of a command line, as a shell splits them (double quotes group). */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);

describe('the documented systemd service', () => {
  it('starts the bin directly and exits 0 on SIGTERM', async () => {
    const doc = readFileSync(new URL('../../docs/scheduling.md', import.meta.url), 'utf8');
    const exec = /^ExecStart=(.* schedule .*)$/m.exec(doc)?.[1];
    expect(exec, 'docs/scheduling.md documents a schedule service').toBeDefined();
    const [bin, ...args] = words(exec!);
    expect(bin).toBe('/opt/docs-etl/bin/docs-etl.js');
    const child = spawn(BIN, [...args, '--warehouse', join(tmp.dir, 'w.duckdb')], {
      env: cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await waitFor(() => stderr.includes('scheduler started'), 20_000, 20);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 40_000);
});
