// An API that cannot be reached at all (nothing listens on its port) is not a window too large for
// it: the run retries the first request like any network error, then stops the organization at its
// checkpoints with one clear line. It never halves the window and retries again (before: 36 attempts
// and 80 s for one stream, repeated by every stream of every pipeline), and it sends nothing else.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { PIPELINE_NAMES } from './exports-helpers.js';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('an API nobody answers', () => {
  it('every pipeline: one stream retries its first request, the organization stops with one line, nothing is bisected', { timeout: 120_000 }, async () => {
    const tmp = tempDir('docs-etl-unreachable-');
    try {
      const port = await closedPort();
      const env = cliEnv({ DOCS_API_BASE_URL: `http://127.0.0.1:${port}`, DOCS_API_KEY: 'mint_unreachable_key', DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: PIPELINE_NAMES.join(','), LOG_LEVEL: 'info' });
      const r = await runCli(['sync', '--warehouse', join(tmp.dir, 'w.duckdb')], env);
      const out = r.stdout + r.stderr;
      expect(r.code, out).toBe(1);
      // The retries of one request (DEFAULT_RETRY: 6 attempts, 5 retries), not of a bisected window.
      expect(out.match(/request failed, retrying/g) ?? []).toHaveLength(5);
      expect(out).not.toMatch(/bisecting/);
      expect(out).toMatch(/could not be reached after 6 attempts: network error: ECONNREFUSED/);
      // The other streams of the organization are not tried, and say why.
      expect(out).toMatch(/not read \(the API could not be reached\)/);
      expect(out).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    } finally {
      tmp.cleanup();
    }
  });
});
