// `docs-etl static-export` through main(): flags, environment, exit codes, one-line errors, summary.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { systemClock } from '../../src/core/clock.js';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { KEY, NON_ENTERPRISE_KEY, sandboxWith } from './helpers.js';
import { allFiles } from './warehouse-helpers.js';
import { tempDir } from '../helpers/tmp.js';

let sb: Sandbox;
let dir: string;
let cleanup: () => void;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir('se-cli-'));
  sb = await sandboxWith(systemClock, { jobDurationMs: 300, bundleTtlMs: 60_000, pagesPerSite: 30 });
});
afterAll(async () => {
  await sb.close();
  cleanup();
});

function sink(tty = false): Writable & { text: () => string; isTTY?: boolean } {
  const chunks: string[] = [];
  const w = new Writable({
    write(c: Buffer, _e, cb) {
      chunks.push(c.toString('utf8'));
      cb();
    },
  }) as Writable & { text: () => string; isTTY?: boolean };
  w.text = () => chunks.join('');
  if (tty) w.isTTY = true;
  return w;
}

async function run(args: string[], env: Record<string, string | undefined> = {}, tty = false) {
  const stdout = sink();
  const stderr = sink(tty);
  const code = await main(['node', 'docs-etl', 'static-export', ...args], {
    stdout, stderr, signal: new AbortController().signal,
    env: { DOCS_API_KEY: KEY, DOCS_API_BASE_URL: sb.url, LOG_LEVEL: 'info', ...env },
  });
  return { code, out: stdout.text(), err: stderr.text() };
}

const common = () => ['--out', join(dir, 'exports'), '--warehouse', join(dir, 'w.duckdb'), '--poll-interval', '20ms', '--timeout', '20s'];

describe('docs-etl static-export', () => {
  it('exports: summary on stdout, JSON logs and a TTY progress line on stderr, exit 0', async () => {
    const values = join(dir, 'values.yaml');
    const r = await run(['--domain', 'docs.example.com', '--paths', 'index,guides/getting-started,guides/authentication', '--values-file', values, ...common()], {}, true);
    expect(r.err).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^static export se_[0-9a-f]{16} of docs\.example\.com: completed\n {2}pages: {3}3\n {2}size: {4}\d+ bytes\n {2}sha256: {2}[0-9a-f]{64}\n {2}archive: .+bundle\.tar\.gz\n {2}values: {2}.+values\.yaml \(bundleUrl expires at .+\)\n$/);
    expect(r.err).toContain('"msg":"static export job started"');
    expect(r.err).toContain('\r\u001b[2Kstatic export se_');
    expect(r.err).toMatch(/static export se_[0-9a-f]+: (queued|running|completed) \d+% \(\d+ pages\)/);
    expect(r.out).not.toContain('X-Amz-Signature');
    expect(r.err).not.toContain('X-Amz-Signature');
    expect(existsSync(values)).toBe(true);
    expect(r.err + r.out).not.toContain(KEY);
    for (const f of allFiles(dir)) expect(readFileSync(f).includes(KEY), f).toBe(false);
  });

  it('--version after the command labels the export; it is not the root program\'s -V, --version', async () => {
    const values = join(dir, 'values-v.yaml');
    const r = await run(['--domain', 'docs.example.com', '--version', '2026-11-01', '--paths', 'index', '--values-file', values, ...common()]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('of docs.example.com (version 2026-11-01): completed');
    expect(readFileSync(values, 'utf8')).toContain('version: "2026-11-01"');
    expect(r.out).not.toMatch(/^\d+\.\d+\.\d+\n$/); // not the package version
  });

  it('no progress line when stderr is not a TTY', async () => {
    const r = await run(['--domain', 'docs.example.com', '--paths', 'index', ...common()]);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('\r');
  });

  it('missing DOCS_API_KEY: one clear line, exit 2', async () => {
    const r = await run(['--domain', 'docs.example.com', ...common()], { DOCS_API_KEY: undefined });
    expect(r.code).toBe(2);
    expect(r.err).toBe('docs-etl: DOCS_API_KEY is not set: export the admin API key (mint_…) to use static-export\n');
  });

  it.each([
    [['--domain', 'https://docs.example.com'], /not a hostname/],
    [['--domain', 'docs.example.com', '--paths', '/index'], /not a page path/],
    [['--job', 'se_1234567890abcdef', '--paths', 'index'], /--paths cannot be used with --job/],
    [[], /--domain is required/],
    [['--domain', 'docs.example.com', '--keep', '0'], /--keep/],
    [['--domain', 'docs.example.com', '--timeout', 'soon'], /--timeout/],
  ])('bad usage %j: exit 2', async (args, message) => {
    const base = args.includes('--timeout') ? common().slice(0, -2) : common();
    const r = await run([...args, ...base]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('non-enterprise organization: one clear line, exit 1', async () => {
    const r = await run(['--domain', 'docs.example.com', ...common()], { DOCS_API_KEY: NON_ENTERPRISE_KEY });
    expect(r.code).toBe(1);
    expect(r.err).toBe('docs-etl: error: static export is not enabled for this organization (403): it requires an Enterprise plan; contact sales to enable it\n');
  });

  it('rejected key: exit 1 with the 401 line, the key not echoed', async () => {
    const r = await run(['--domain', 'docs.example.com', ...common()], { DOCS_API_KEY: 'mint_cli_wrong_key_x' });
    expect(r.code).toBe(1);
    expect(r.err).toBe('docs-etl: error: the API key was rejected (401): check DOCS_API_KEY\n');
  });

  it('timeout: exit 1 naming the job to resume; --job resumes it', async () => {
    const args = ['--domain', 'docs.example.com', '--out', join(dir, 'exports'), '--warehouse', join(dir, 'w.duckdb'), '--poll-interval', '10ms'];
    await sb.close();
    sb = await sandboxWith(systemClock, { jobDurationMs: 2_000, pagesPerSite: 30 });
    const r = await run([...args, '--timeout', '100ms']);
    expect(r.code).toBe(1);
    const m = /docs-etl: error: timed out after 100ms .*resume with: docs-etl static-export --job (se_[0-9a-f]{16})\n$/.exec(r.err);
    expect(m, r.err).not.toBeNull();
    const resumed = await run(['--job', m![1]!, '--out', join(dir, 'exports'), '--warehouse', join(dir, 'w.duckdb'), '--poll-interval', '50ms', '--timeout', '20s']);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain(`static export ${m![1]} of docs.example.com: completed`);
  });
});
