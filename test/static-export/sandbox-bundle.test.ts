// The sandbox's bundles and presigned links: a real .tar.gz static site; S3-like link rules.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { list, type ReadEntry } from 'tar';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { decodeEntities } from '../../src/static-export/html-entities.js';
import { FakeClock, call, sandboxWith } from './helpers.js';

const JOBS = '/v1/static-export/jobs';
let clock: FakeClock;
let sb: Sandbox;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'se-bundle-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  clock = new FakeClock();
  sb = await sandboxWith(clock, { jobDurationMs: 1_000, bundleTtlMs: 30_000, pagesPerSite: 40 });
});
afterEach(() => sb.close());

async function completedJob(domain = 'docs.example.com'): Promise<string> {
  const r = await call(sb.url, JOBS, { method: 'POST', body: { domain, version: '2026-11-01' } });
  clock.advance(1_000);
  return r.json.jobId as string;
}

async function link(jobId: string): Promise<{ bundleUrl: string; sizeBytes: number; expiresAt: string }> {
  const r = await call(sb.url, `${JOBS}/${jobId}/bundle`, { method: 'POST' });
  expect(r.status).toBe(200);
  return r.json;
}

async function entriesOf(bytes: Buffer): Promise<Map<string, { type: string; text: string }>> {
  const file = join(dir, `b-${Math.random().toString(16).slice(2)}.tar.gz`);
  writeFileSync(file, bytes);
  const out = new Map<string, { type: string; text: string }>();
  const pending: Promise<void>[] = [];
  await list({
    file, strict: true,
    onReadEntry: (e: ReadEntry) => {
      const chunks: Buffer[] = [];
      e.on('data', (c: Buffer) => chunks.push(c));
      pending.push(new Promise((res) => e.on('end', () => {
        out.set(e.path, { type: e.type, text: Buffer.concat(chunks).toString('utf8') });
        res();
      })));
    },
  });
  await Promise.all(pending);
  return out;
}

describe('bundle archive', () => {
  it('is a real tar.gz of a static site: .html pages with titles, assets, an extensionless sitemap', async () => {
    const jobId = await completedJob();
    const l = await link(jobId);
    const res = await fetch(l.bundleUrl);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(l.sizeBytes);
    expect(gunzipSync(bytes).length % 512).toBe(0);
    const entries = await entriesOf(bytes);
    const truth = sb.staticExport.truth(jobId)!;
    expect(truth.length).toBe(40);
    for (const page of truth) {
      const e = entries.get(`${page.path}.html`);
      expect(e, page.path).toBeDefined();
      expect(Buffer.byteLength(e!.text)).toBe(page.bytes);
      const raw = /<title>([\s\S]*?)<\/title>/.exec(e!.text)![1]!;
      expect(decodeEntities(raw)).toBe(page.title);
    }
    expect(entries.has('index.html')).toBe(true);
    expect(entries.has('guides/getting-started.html')).toBe(true);
    expect(entries.has('api-reference/introduction.html')).toBe(true);
    expect([...entries.keys()].some((p) => /^_next\/static\/css\/.+\.css$/.test(p))).toBe(true);
    expect([...entries.keys()].some((p) => /^_next\/static\/chunks\/.+\.js$/.test(p))).toBe(true);
    expect(entries.get('images/logo.png')?.type).toBe('File');
    // Titles are written with entities in several forms.
    const titles = [...entries.values()].map((e) => /<title>([\s\S]*?)<\/title>/.exec(e.text)?.[1] ?? '').join('\n');
    for (const form of ['&amp;', '&lt;', '&#39;', '&quot;', /&#\d{3,};/, /&#x[0-9A-F]+;/, /&[a-z]+;/, '—']) {
      if (typeof form === 'string') expect(titles).toContain(form);
      else expect(titles).toMatch(form);
    }
    const sitemap = entries.get('sitemap.xml')!.text;
    expect(sitemap).toContain('<loc>https://docs.example.com/guides/getting-started</loc>');
    expect(sitemap).toContain('<loc>https://docs.example.com/</loc>');
    expect(sitemap).not.toContain('.html');
    // Links inside the bundle use .html.
    expect(entries.get('index.html')!.text).toContain('href="/quickstart.html"');
  });

  it('is deterministic per job', async () => {
    const jobId = await completedJob();
    const a = Buffer.from(await (await fetch((await link(jobId)).bundleUrl)).arrayBuffer());
    const b = Buffer.from(await (await fetch((await link(jobId)).bundleUrl)).arrayBuffer());
    expect(a.equals(b)).toBe(true);
  });
});

describe('presigned links', () => {
  it('expire: 403 with an S3 XML body after expiresAt; a fresh link works', async () => {
    const jobId = await completedJob();
    const old = await link(jobId);
    clock.advance(30_001);
    const expired = await fetch(old.bundleUrl);
    expect(expired.status).toBe(403);
    const xml = await expired.text();
    expect(xml).toContain('<Error><Code>AccessDenied</Code><Message>Request has expired</Message>');
    const fresh = await link(jobId);
    expect(Date.parse(fresh.expiresAt)).toBe(clock.ms + 30_000);
    const ok = await fetch(fresh.bundleUrl);
    expect(ok.status).toBe(200);
    expect((await ok.arrayBuffer()).byteLength).toBe(fresh.sizeBytes);
  });

  it('a tampered signature or missing parameters → 403', async () => {
    const jobId = await completedJob();
    const l = await link(jobId);
    const bad = l.bundleUrl.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`);
    const r = await fetch(bad);
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const other = l.bundleUrl.replace(`/bundles/${jobId}/`, '/bundles/se_0123456789abcdef/');
    expect((await fetch(other)).status).toBe(403);
    expect((await fetch(l.bundleUrl.split('?')[0]!)).status).toBe(403);
  });

  it('a download carrying an Authorization header → 400 (two auth mechanisms)', async () => {
    const jobId = await completedJob();
    const l = await link(jobId);
    const r = await fetch(l.bundleUrl, { headers: { authorization: 'Bearer anything' } });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('<Code>InvalidArgument</Code>');
  });

  it('damaged downloads on demand: truncated, then corrupted, then intact', async () => {
    const jobId = await completedJob();
    const l = await link(jobId);
    sb.staticExport.damageNextDownloads(2);
    const good = () => fetch(l.bundleUrl).then(async (r) => Buffer.from(await r.arrayBuffer()));
    const truncated = await good();
    const corrupted = await good();
    const intact = await good();
    expect(truncated.length).toBeLessThan(l.sizeBytes);
    expect(corrupted.length).toBe(l.sizeBytes);
    expect(corrupted.equals(intact)).toBe(false);
    expect(() => gunzipSync(corrupted)).toThrow();
    expect(intact.length).toBe(l.sizeBytes);
    expect(gunzipSync(intact).length).toBeGreaterThan(0);
  });

  it('configure({staticExport: {damagedDownloads}}) also damages the next downloads', async () => {
    const jobId = await completedJob();
    const l = await link(jobId);
    sb.configure({ staticExport: { damagedDownloads: 1 } as never });
    const first = Buffer.from(await (await fetch(l.bundleUrl)).arrayBuffer());
    const second = Buffer.from(await (await fetch(l.bundleUrl)).arrayBuffer());
    expect(first.length).toBeLessThan(l.sizeBytes);
    expect(second.length).toBe(l.sizeBytes);
  });
});
