// Rule 10: a landed page is complete or absent. A short write (a full disk, a file size limit) is
// an error and leaves no page; a landed page that does not parse (cut short by an older version's
// short write) is dropped with a warning and read again from the page before it: the next run
// exits 0, loads everything, with no manual step. Real processes, real file size limit, hostile
// server on 127.0.0.1.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/core/secrets.js';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { expectKeyAbsent, hostileServer, json, oneWindow, page, plainLines, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_landing_key_10';
const tmp = tempDir('docs-etl-hostile-10-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

const ATOMIC_FILE = fileURLToPath(new URL('../../dist/src/core/atomic-file.js', import.meta.url));

describe('rule 10: a landed page is complete or absent', () => {
  it('a short write (file size limit: write(2) writes part of the page) is an error and leaves no file', async () => {
    const dir = join(tmp.dir, 'short');
    const script = join(tmp.dir, 'short-write.mjs');
    writeFileSync(script, `import { writeDurably } from ${JSON.stringify(ATOMIC_FILE)};
try { writeDurably(process.argv[2], 'x'.repeat(200000)); console.log('written'); } catch (e) { console.log('error: ' + e.message); }\n`);
    // A 64 KiB file size limit, SIGXFSZ ignored: the write stops short, as on a full disk.
    const child = spawn('bash', ['-c', `trap "" XFSZ; ulimit -f 64; exec "${process.execPath}" "${script}" "${join(dir, 'page.json')}"`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(out).toMatch(/^error: (EFBIG|short write)/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a landed page cut short is dropped with a warning and read again from the page before it; exit 0; all turns load', async () => {
    // Three pages by cursor: (none) → c1 → c2 → end.
    const pages: Record<string, unknown> = { '': page(turns(10, 'a_'), 'c1'), c1: page(turns(10, 'b_'), 'c2'), c2: page(turns(10, 'c_'), null) };
    const s = await hostileServer((req, res) => json(res, 200, pages[new URL(req.url!, 'http://x').searchParams.get('cursor') ?? '']));
    servers.push(s);
    const dir = join(tmp.dir, 'cut');
    const warehouse = join(dir, 'w.duckdb');
    // As an older version left it: page 1 of a window landed whole, page 2 cut short by a full disk.
    const zone = new LandingZone(join(dir, 'landing', 'w'));
    const from = new Date(Date.now() - 50 * 60_000);
    const meta = (seq: number, request: string | null, next: string | null) => ({
      v: 1, project_id: 'demo', pipeline: 'assistant_conversations', organization: keyFingerprint(KEY), seq, run_id: '01OLDRUN', fetched_at: from.toISOString(),
      requests: 1, records: 10, quarantined: 0, window: { id: '01OLDWINDOW', from: from.toISOString(), to: new Date(from.getTime() + 40 * 60_000).toISOString(), purpose: 'head' as const },
      request: { cursor: request, offset: null }, next: { cursor: next, offset: null, complete: false }, window_limit_ms: null, invalid: [], x: Array.from({ length: 10 }, () => null),
    });
    zone.land(meta(1, null, 'c1'), JSON.stringify(pages['']));
    const cut = zone.land(meta(2, 'c1', 'c2'), JSON.stringify(pages.c1));
    truncateSync(cut.path, Math.floor(readFileSync(cut.path).length / 2));
    const r = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);
    expect(plainLines(r.stderr)).toEqual([]);
    expect(r.stderr).toMatch(/a landed page does not parse: dropped with the pages after it/);
    // The window continued from page 1's cursor: page 2 was asked for again.
    expect(s.seen.some((x) => x.path.includes('cursor=c1'))).toBe(true);
    expect((await query(warehouse, 'SELECT count(DISTINCT id)::INTEGER AS n FROM conversations'))[0]!.n).toBe(30);
    const again = await runMeasured(['sync', '--warehouse', warehouse, ...oneWindow()], { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }, join(dir, 'peak2'));
    expect(again.code, again.stderr).toBe(0);
    expectKeyAbsent(KEY, r, [dir]);
  });
});
