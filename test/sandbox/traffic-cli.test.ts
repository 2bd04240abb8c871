// `docs-etl sandbox --traffic` as a real process (needs `npm run build`; `npm test` builds first).
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

describe('docs-etl sandbox --traffic', () => {
  it('serves steady traffic over the history days, counted by the control route', async () => {
    const child = spawnCli(['sandbox', '--port', '0', '--traffic', '1000/1h', '--history-days', '1', '--traffic-changes', '0.5:1h-2h'], cliEnv({}));
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+\n/.test(out) || child.exitCode !== null, 20_000);
      const url = /listening on (\S+)/.exec(out)![1]!;
      const count = (await (await fetch(`${url}/__sandbox/visible-count?projectId=demo`)).json()) as { count: number };
      // 24,000 turns in the day before start, less the few still late (1% up to 20 h, 9% up to 3 h)
      expect(count.count).toBeGreaterThan(23_000);
      expect(count.count).toBeLessThanOrEqual(24_000);
      const page = await fetch(`${url}/v1/analytics/demo/assistant?limit=1000`, { headers: { authorization: 'Bearer mint_sandbox_demo_key' } });
      const body = (await page.json()) as { conversations: unknown[]; hasMore: boolean };
      expect(body.conversations).toHaveLength(1000);
      expect(body.hasMore).toBe(true);
      child.kill('SIGTERM');
      expect((await child.result).code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.each([
    [['--traffic', '1000/d', '--live'], /--traffic.*--live/],
    [['--traffic', 'lots'], /--traffic/],
    [['--traffic', '1000/d', '--traffic-arrival', '0.5:5m'], /arrival shares must sum to 1/],
  ])('rejects %j with exit 2 and one line', async (args, message) => {
    const r = await runCli(['sandbox', ...args], cliEnv({}));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});
