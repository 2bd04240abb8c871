// Rule 7: ids, paths and URLs from the server are validated before they name a directory or are
// fetched. A resumed job answered for another id (`../../..`), bundle links that are not https (or
// loopback http), and redirects to another origin are refused with one line; nothing is written
// outside --out. Real CLI, hostile servers on 127.0.0.1.
import { readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FatalError } from '../../src/core/errors.js';
import { checkBundleLink } from '../../src/static-export/bundle-url.js';
import { tempDir } from '../helpers/tmp.js';
import { expectKeyAbsent, expectOneCleanLine, filesUnder, hostileServer, json, runMeasured, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_ids_key_0577';
const JOB = 'se_000000000000a7a7';
const tmp = tempDir('docs-etl-hostile-7-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

const job = (jobId: string) => ({ jobId, status: 'completed', progress: 100, pageCount: 2, createdAt: '2026-11-01T09:00:00Z', updatedAt: '2026-11-01T09:01:00Z' });

/** An API for job JOB: `jobAs` is the id its job status claims; its bundle link is `link()`. */
async function api(opts: { jobAs?: string; link: (self: Hostile) => string; storage?: (req: IncomingMessage, res: ServerResponse) => void }): Promise<Hostile> {
  const s: Hostile = await hostileServer((req, res) => {
    if (req.url?.endsWith('/bundle')) return json(res, 200, { jobId: JOB, bundleUrl: opts.link(s), sizeBytes: 1000, expiresAt: '2099-01-01T00:00:00Z' });
    if (req.url?.startsWith('/storage/')) return opts.storage?.(req, res) ?? res.writeHead(404).end();
    return json(res, req.method === 'POST' ? 202 : 200, job(opts.jobAs ?? JOB));
  });
  servers.push(s);
  return s;
}

function exportRun(s: Hostile, name: string, extra: string[]) {
  const dir = join(tmp.dir, name);
  return {
    dir,
    result: runMeasured(['static-export', '--out', join(dir, 'out'), '--warehouse', join(dir, 'w.duckdb'), '--poll-interval', '10ms', '--timeout', '20s', ...extra],
      { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY }, join(dir, 'peak')),
  };
}

describe('rule 7: server-given ids and URLs are validated', () => {
  it('--job resume answered for job "../../.." is refused; nothing is written outside --out', async () => {
    const s = await api({ jobAs: '../../..', link: () => 'https://storage.example/never' });
    const { dir, result } = exportRun(s, 'resume', ['--job', JOB, '--domain', 'docs.example.com']);
    const r = await result;
    expect(r.code, r.stderr).toBe(1);
    expectOneCleanLine(r, /^docs-etl: error: the job status response is about job "\.\.\/\.\.\/\.\.", not the job asked for \(se_000000000000a7a7\); refused$/);
    expect(readdirSync(tmp.dir).sort()).toEqual(expect.arrayContaining(['resume']));
    expect(readdirSync(dir).filter((n) => n !== 'w.duckdb' && n !== 'w.duckdb.wal' && n !== 'peak')).toEqual([]);
    expect(s.seen.map((x) => x.method)).toEqual(['GET']);
    expectKeyAbsent(KEY, r, [dir]);
  });

  it('bundle links that are not https (or loopback http) are refused before anything is fetched', async () => {
    const fileLink = await api({ link: () => 'file:///etc/passwd' });
    const metadata = await api({ link: () => 'http://169.254.169.254/latest/meta-data/iam?X-Amz-Signature=x' });
    const runs = [exportRun(fileLink, 'file', ['--domain', 'docs.example.com']), exportRun(metadata, 'metadata', ['--domain', 'docs.example.com'])];
    const [a, b] = await Promise.all(runs.map((x) => x.result));
    expect(a!.code).toBe(1);
    expectOneCleanLine(a!, /^docs-etl: error: the bundle link file:\/\/\/etc\/passwd is not https \(plain http is accepted only for a loopback host, e\.g\. the sandbox\); refused; resume with/);
    expect(b!.code).toBe(1);
    expectOneCleanLine(b!, /^docs-etl: error: the bundle link http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\?\[redacted\] is not https .*; refused; resume with/);
    for (const x of runs) expect(filesUnder(join(x.dir, 'out'))).toEqual([]);
  });

  it('a redirect from storage to another origin is not followed', async () => {
    const other = await hostileServer((_req, res) => res.end('gotcha'));
    servers.push(other);
    const s = await api({
      link: (self) => `${self.url}/storage/bundle.tar.gz?X-Amz-Signature=abc`,
      storage: (_req, res) => res.writeHead(302, { location: `${other.url}/steal?token=secret` }).end(),
    });
    const r = await exportRun(s, 'redirect', ['--domain', 'docs.example.com']).result;
    expect(r.code).toBe(1);
    expectOneCleanLine(r, new RegExp(`^docs-etl: error: storage redirected the bundle download \\(302\\) to ${other.url.replace(/\./g, '\\.')}/steal\\?\\[redacted\\]; redirects are not followed; resume with`));
    expect(other.seen).toHaveLength(0);
  });

  it.each([
    ['https://storage.example/b.tar.gz?sig=1', null],
    ['http://127.0.0.1:9/b.tar.gz', null],
    ['http://localhost:9/b.tar.gz', null],
    ['http://[::1]:9/b.tar.gz', null],
    ['http://storage.example/b.tar.gz', /is not https/],
    ['http://127.0.0.1.evil.example/b.tar.gz', /is not https/],
    ['ftp://storage.example/b.tar.gz', /is not https/],
    ['javascript:alert(1)', /is not https/],
    ['https://user:pass@storage.example/b.tar.gz', /carries credentials/],
  ])('checkBundleLink(%s)', (url, refused) => {
    const check = () => checkBundleLink({ jobId: JOB, bundleUrl: url, sizeBytes: 1, expiresAt: '2099-01-01T00:00:00Z' });
    if (refused) expect(check).toThrow(FatalError);
    if (refused) expect(check).toThrow(refused);
    else expect(check).not.toThrow();
  });
});
