// The service recipe docs/scheduling.md documents, run as written (its bin path pointed at this
// checkout): the launcher itself, whose shebang execs node with the memory settings in the same
// process, so systemd's SIGTERM reaches the scheduler, and it must exit 0, not 143 as it does
// through npx.
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
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

const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';

/** The unit files of docs/scheduling.md's ```ini blocks, named as the page installs them. */
function documentedUnits(doc: string): { name: string; text: string }[] {
  return [...doc.matchAll(/```ini\n([\s\S]*?)```/g)].map((m) => m[1]!).map((text) => ({
    name: text.includes('[Timer]') ? 'docs-etl.timer' : / schedule /.test(text) ? 'docs-etl-schedule.service' : 'docs-etl.service',
    text,
  }));
}

// Debian's `systemd` package (.ci/run installs it); without it the check cannot run here.
describe.skipIf(!existsSync(SYSTEMD_ANALYZE))('the documented systemd units', () => {
  it('pass systemd-analyze verify with their files in place, and every EnvironmentFile= names the file', () => {
    const doc = readFileSync(new URL('../../docs/scheduling.md', import.meta.url), 'utf8');
    const units = documentedUnits(doc);
    expect(units.map((u) => u.name).sort()).toEqual(['docs-etl-schedule.service', 'docs-etl.service', 'docs-etl.timer']);
    // The page's paths, rooted in a temp folder: the launcher of this checkout and an env file.
    const root = join(tmp.dir, 'root');
    const place = (text: string) => text.replaceAll('/opt/docs-etl', join(root, 'opt/docs-etl')).replaceAll('/etc/docs-etl/', join(root, 'etc/docs-etl/'));
    mkdirSync(join(root, 'opt/docs-etl/bin'), { recursive: true });
    mkdirSync(join(root, 'etc/docs-etl'), { recursive: true });
    mkdirSync(join(root, 'units'), { recursive: true });
    symlinkSync(BIN, join(root, 'opt/docs-etl/bin/docs-etl.js'));
    writeFileSync(join(root, 'etc/docs-etl/env'), `DOCS_API_KEY=${KEY}\nDOCS_PROJECT_ID=acme\n`, { mode: 0o600 });
    const files = units.map((u) => {
      const file = join(root, 'units', u.name);
      writeFileSync(file, place(u.text));
      return file;
    });
    const r = spawnSync(SYSTEMD_ANALYZE, ['verify', '--man=no', ...files], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    // systemd reads the whole rest of the line as the path (a leading '-' makes it optional), and
    // verify does not open it: a comment after the value would name a file that does not exist.
    for (const f of files) {
      for (const m of readFileSync(f, 'utf8').matchAll(/^EnvironmentFile=-?(.*)$/gm)) {
        expect(existsSync(m[1]!) && statSync(m[1]!).isFile(), `EnvironmentFile=${m[1]} in ${f}`).toBe(true);
      }
    }
  }, 60_000);
});
