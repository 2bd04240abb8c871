// `docs-etl sandbox` as a real process (needs `npm run build`; `npm test` builds first).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/docs-etl.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/src/cli/commands/sandbox.js', import.meta.url));

describe('docs-etl sandbox', () => {
  it('prints the listening line, serves with the given key and exits 0 on SIGTERM', async () => {
    expect(existsSync(BUILT), 'run `npm run build` first').toBe(true);
    const child = spawn(process.execPath, [
      BIN, 'sandbox', '--port', '0', '--api-key', 'mint_x', '--conversations', '50', '--history-days', '2', '--site-pages', '120', '--views-per-day', '5000',
    ], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`exited ${code} before listening: ${err}`)));
      });
      const ok = await fetch(`${url}/v1/analytics/demo/assistant?limit=2`, { headers: { authorization: 'Bearer mint_x' } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { conversations: unknown[] }).conversations).toHaveLength(2);
      // The site flags shape the other endpoints: at most 120 pages with views.
      const views = await fetch(`${url}/v1/analytics/demo/views?limit=250`, { headers: { authorization: 'Bearer mint_x' } });
      const body = (await views.json()) as { views: unknown[]; hasMore: boolean; totals: { human: number } };
      expect([views.status, body.views.length, body.hasMore]).toEqual([200, 120, false]);
      expect(body.totals.human).toBeGreaterThan(2000); // two days of 5000 on weekdays (a weekend gives less, a release day more)
      expect(body.totals.human).toBeLessThan(25_000);
      const demoKey = await fetch(`${url}/v1/analytics/demo/assistant`, { headers: { authorization: 'Bearer mint_sandbox_demo_key' } });
      expect(demoKey.status).toBe(401); // --api-key replaces the default key
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
      expect(err).not.toContain('mint_x');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('rejects a bad flag value with exit 2 and one line', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--rate-limit', 'lots'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/rate-limit/);
  });
});
