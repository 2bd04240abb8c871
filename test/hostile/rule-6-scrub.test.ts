// Rule 6: the key is scrubbed from every text that came from a server, before it is printed,
// logged or stored; escape sequences and forged log lines do not get through; keys are normalized
// (with a warning that does not show them) or refused. Real CLI, a server that echoes the key.
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from '../reliability/reliability-helpers.js';
import { runCli, cliEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { expectBoundedMemory, expectKeyAbsent, expectOneCleanLine, filesUnder, hostileServer, json, page, plainLines, runMeasured, turns, type Hostile, oneWindow } from './hostile.js';

const KEY = 'mint_hostile_scrub_key_5772';
const tmp = tempDir('docs-etl-hostile-6-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

/** What a hostile error page sends back: the header echoed, ANSI escapes, a forged JSON log line. */
const echo = (req: IncomingMessage) =>
  `\u001b[2J\u001b[31mForbidden\u001b[0m\n{"level":60,"msg":"forged log line"}\r\nAuthorization: ${req.headers.authorization}\n` +
  `\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007 ${encodeURIComponent(KEY)}`;

describe('rule 6: server text is scrubbed and made one clean line; keys are normalized or refused', () => {
  it('sync: an echoed key reaches neither the terminal, the logs, the warehouse nor the lake; the valid page is loaded', async () => {
    const s = await hostileServer((req, res, n) => {
      if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { error: 'bad key' });
      // Page 1 echoes the key inside the data itself; page 2 is an error page that echoes it.
      if (n === 0) return json(res, 200, page([...turns(19, 'conv_'), ...turns(1, 'echo_', { query: `my key is ${KEY}` })], 'c1'));
      res.writeHead(403, { 'content-type': 'text/plain' }).end(echo(req));
    });
    servers.push(s);
    const dir = join(tmp.dir, 'sync');
    const warehouse = join(dir, 'w.duckdb');
    // Pasted with a Bearer prefix, a zero-width space and a trailing newline: normalized, with a warning.
    const env = { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: `Bearer \u200b${KEY}\n`, DOCS_PROJECT_ID: 'demo' };
    const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], env, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: demo: access denied \(403\): Forbidden \{"level":60,"msg":"forged log line"\} Authorization: Bearer \[redacted\] click \[redacted\]; the key may lack/);
    expect(r.stderr).toMatch(/"msg":"DOCS_API_KEY: removed zero-width characters and surrounding whitespace and a \\"Bearer \\" prefix from the API key"/);
    expect(r.stdout).toMatch(/demo\/assistant_conversations: failed .* 20 rows merged, 0 quarantined \| access denied \(403\): Forbidden \{/);
    expectBoundedMemory(r);
    expect((await query(warehouse, 'SELECT count(*) AS n FROM conversations'))[0]!.n).toBe(20n);
    expect((await query(warehouse, "SELECT query FROM conversations WHERE id = 'echo_0000'"))[0]!.query).toBe('my key is [redacted]');
    expect(String((await query(warehouse, 'SELECT error FROM sync_runs'))[0]!.error)).toMatch(/Bearer \[redacted\]/);

    const lake = join(dir, 'lake');
    const exported = await runCli(['export-parquet', '--warehouse', warehouse, '--out', lake], cliEnv({ DOCS_API_KEY: KEY }));
    expect(exported.code, exported.stderr).toBe(0);
    expect(filesUnder(lake).filter((f) => f.endsWith('.parquet')).length).toBeGreaterThan(0);
    expectKeyAbsent(KEY, r, [dir]); // warehouse, budget, lake
  });

  it('a key with inner whitespace is refused with exit 2 and one line that does not show it; no request is made', async () => {
    const s = await hostileServer((_req, res) => json(res, 500, {}));
    servers.push(s);
    const r = await runCli(['sync', '--warehouse', join(tmp.dir, 'refused', 'w.duckdb'), ...oneWindow()],
      cliEnv({ DOCS_API_BASE_URL: s.url, DOCS_API_KEY: 'mint_abc def_ghi', DOCS_PROJECT_ID: 'demo' }));
    expect(r.code).toBe(2);
    expect(plainLines(r.stderr)).toEqual(['docs-etl: DOCS_API_KEY contains whitespace at position 9 of 16: an API key is printable ASCII without spaces; check how it was pasted']);
    expect(r.stderr).not.toContain('abc def');
    expect(s.seen).toHaveLength(0);
  });

  it('static-export: a failed job whose error echoes the key, with escapes: one clean line; the warehouse keeps it scrubbed', async () => {
    const job = (req: IncomingMessage) => ({
      jobId: 'se_00000000000000e6', status: 'failed', progress: 40, pageCount: 3, createdAt: '2026-11-01T09:00:00Z', updatedAt: '2026-11-01T09:00:09Z',
      error: `\u001b[31mRendering failed\u001b[0m\nrequest had ${req.headers.authorization}`,
    });
    const s = await hostileServer((req, res) => json(res, req.method === 'POST' ? 202 : 200, job(req)));
    servers.push(s);
    const dir = join(tmp.dir, 'se');
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['static-export', '--domain', 'docs.example.com', '--out', join(dir, 'out'), '--warehouse', warehouse],
      { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: static export job se_00000000000000e6 failed: Rendering failed request had Bearer \[redacted\]$/);
    expect((await query(warehouse, 'SELECT error FROM static_export_jobs'))[0]!.error).toBe('Rendering failed request had Bearer [redacted]');
    expectKeyAbsent(KEY, r, [dir]);
  });
});
