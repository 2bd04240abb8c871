// `schedule` and its reports when the projects count days in different zones (the README's own
// example config): `--report FILE` is refused at start, `--report-dir DIR` writes one per project.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFileName } from '../../src/outputs/report/project-reports.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_schedule_reports_key';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let config: string;
beforeAll(async () => {
  tmp = tempDir();
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 300, seed: 7, projects: ['demo', 'other.docs'] }));
  config = join(tmp.dir, 'docs-etl.json');
  writeFileSync(config, JSON.stringify({
    warehouse: join(tmp.dir, 'w.duckdb'),
    projects: [{ id: 'demo', apiKeyEnv: 'DOCS_API_KEY', timezone: 'Europe/Berlin' }, { id: 'other.docs', apiKeyEnv: 'DOCS_API_KEY', timezone: 'America/New_York' }],
  }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = () => cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY });

describe('schedule reports with projects in two zones', () => {
  it('--report FILE is refused at start: exit 2, one line naming the zones and --report-dir', async () => {
    const r = await runCli(['schedule', '--config', config, '--cron', '* * * * * *', '--timezone', 'UTC', '--run-now', '--report', join(tmp.dir, 'one.html')], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^docs-etl: .*different time zones: America\/New_York \(other\.docs\), Europe\/Berlin \(demo\); use --report-dir DIR.*\n$/);
    expect(existsSync(join(tmp.dir, 'w.duckdb'))).toBe(false);
  });

  it('--report-dir DIR writes one report per project, each in its own zone, named from the id', async () => {
    const dir = join(tmp.dir, 'reports');
    const child = spawnCli(['schedule', '--config', config, '--cron', '* * * * * *', '--timezone', 'UTC', '--run-now', '--report-dir', dir], env());
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    await waitFor(() => (stdout.match(/ report \S+: /g) ?? []).length >= 2, 60_000, 20);
    child.kill('SIGTERM');
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['demo.html', 'other.docs.html']);
    expect(stdout).toMatch(/ report \S+demo\.html: demo, \S+ → \S+ \(Europe\/Berlin\)/);
    expect(stdout).toMatch(/ report \S+other\.docs\.html: other\.docs, \S+ → \S+ \(America\/New_York\)/);
    expect(readFileSync(join(dir, 'demo.html'), 'utf8')).toMatch(/Europe\/Berlin/);
  }, 90_000);

  it('file names from ids stay inside the folder and apart', () => {
    expect(reportFileName('..')).toBe('%2E..html');
    expect(reportFileName('.hidden')).toBe('%2Ehidden.html');
    expect(reportFileName('a b:c*')).toBe('a%20b%3Ac%2A.html');
    expect(reportFileName('acme')).toBe('acme.html');
  });
});
