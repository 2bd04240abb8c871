// The Kubernetes CronJobs of docs/container.md, their shell scripts run as written (`/bin/sh -c
// '<args>'`, `docs-etl` on PATH is this checkout's launcher). Kubernetes stops a Job by sending
// SIGTERM to the container's first process, the shell: the script must pass it on so the sync
// stops at its checkpoint and says so, instead of being killed at the end of the grace period.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_kubernetes_recipe_key';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir();
  // Slow answers: the sync is still reading when the signal comes.
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 20_000, latencyMs: 300 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

interface Container { name: string; command?: string[]; args?: string[] }

/** The shell scripts of the CronJobs in docs/container.md (containers started with `sh -c`). */
function documentedScripts(): { job: string; script: string }[] {
  const doc = readFileSync(new URL('../../docs/container.md', import.meta.url), 'utf8');
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const out: { job: string; script: string }[] = [];
  for (const block of blocks) {
    for (const d of parseAllDocuments(block)) {
      const o = d.toJS() as { kind?: string; metadata?: { name?: string }; spec?: { jobTemplate?: { spec?: { template?: { spec?: { containers?: Container[] } } } } } };
      if (o?.kind !== 'CronJob') continue;
      for (const c of o.spec?.jobTemplate?.spec?.template?.spec?.containers ?? []) {
        if (c.command?.join(' ') === '/bin/sh -c') out.push({ job: o.metadata?.name ?? '?', script: c.args![0]! });
      }
    }
  }
  return out;
}

describe('the documented Kubernetes CronJobs', () => {
  const scripts = documentedScripts();
  it('are found in docs/container.md', () => {
    expect(scripts.map((s) => s.job)).toEqual(['docs-etl', 'docs-etl-lake']);
  });

  it.each(scripts)('$job: SIGTERM to the shell stops the sync at its checkpoint, exit 0, "stopped on request"', async ({ job, script }) => {
    const dir = join(tmp.dir, job);
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(BIN, join(bin, 'docs-etl'));
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', PATH: `${bin}:${process.env.PATH}` });
    const child = spawn('/bin/sh', ['-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    // A second window has started (the first one's pages landed): the sync is mid-backfill.
    await waitFor(() => (stderr.match(/window started/g) ?? []).length >= 2, 60_000, 20);
    child.kill('SIGTERM');
    expect(await exited, stderr).toBe(0);
    expect(stdout).toMatch(/assistant_conversations: stopped \|.*stopped on request/);
    expect(stdout).not.toMatch(/lake|partition/);
  }, 120_000);
});
