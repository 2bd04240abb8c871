// The static export tables and views on a real DuckDB file: empty warehouse, the latest export per
// domain, citations matched by page_key, unanswered turns by starting page title.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { warehouseRecorder } from '../../src/static-export/record.js';
import { pageKey } from '../../src/static-export/page-path.js';
import type { StaticExportJob } from '../../src/contracts/static-export.js';
import { FakeClock } from './helpers.js';
import { tempDir } from '../helpers/tmp.js';

const VIEWS = ['latest_static_exports', 'latest_site_pages', 'pages_never_cited', 'pages_by_citations', 'unanswered_by_page_title'];

let dir: string;
let cleanup: () => void;
let path: string;
beforeEach(() => {
  ({ dir, cleanup } = tempDir('se-views-'));
  path = join(dir, 'w.duckdb');
});
afterEach(() => cleanup());

async function withWh<T>(fn: (conn: DuckDBConnection, wh: Warehouse) => Promise<T>): Promise<T> {
  const wh = await openWarehouse(path);
  try {
    return await fn(wh.conn, wh);
  } finally {
    wh.close();
  }
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return withWh(async (conn) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]);
}

function job(jobId: string, finishedAt: string, status: StaticExportJob['status'] = 'completed'): StaticExportJob {
  return { jobId, status, progress: 100, pageCount: 3, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: finishedAt };
}

async function recordExport(jobId: string, domain: string, finishedAt: string, pages: { path: string; title: string | null }[]) {
  await warehouseRecorder(path, new FakeClock()).recordExport({
    job: job(jobId, finishedAt), context: { domain, version: null },
    bundle: { sizeBytes: 10, sha256: 'ab', archivePath: `/x/${jobId}/bundle.tar.gz`, linkExpiresAt: finishedAt },
    pages: pages.map((p) => ({ ...p, bytes: 100 })), removedArchives: [],
  });
}

async function addTurn(id: string, at: string, status: 'answered' | 'unanswered', pageUrl: string | null, sources: string[]) {
  await withWh(async (conn) => {
    await conn.run(`INSERT INTO conversations VALUES ('p1', $id, CAST($at AS TIMESTAMPTZ), 'q', 'r', 'answer', $status, NULL,
      $url, $path, NULL, now(), now(), now(), NULL)`, { id, at, status, url: pageUrl, path: pageUrl === null ? null : new URL(pageUrl).pathname });
    for (const [i, url] of sources.entries()) {
      await conn.run(`INSERT INTO sources VALUES ('p1', $id, CAST($at AS TIMESTAMPTZ), $pos, 't', $url)`, { id, at, pos: i + 1, url });
    }
  });
}

describe('static export views', () => {
  it('all exist and answer on an empty warehouse', async () => {
    for (const v of VIEWS) expect(await rows(`SELECT * FROM ${v}`), v).toEqual([]);
  });

  it('page_key in SQL matches the client rule', async () => {
    const cases = ['https://docs.example.com/guides/start', 'https://docs.example.com/guides/start/', 'https://docs.example.com/x.html',
      'https://docs.example.com/', 'https://docs.example.com', 'https://d.io/a/b?x=1#f', '/guides/start', '/', 'a/b/'];
    const got = await withWh(async (conn) => {
      const out: string[] = [];
      for (const c of cases) out.push(String((await conn.runAndReadAll('SELECT page_key($u) AS k', { u: c })).getRowObjectsJson()[0]!.k));
      return out;
    });
    expect(got).toEqual(cases.map(pageKey));
    expect(await rows('SELECT page_key(NULL) AS k')).toEqual([{ k: null }]);
  });

  it('use the latest completed export per domain, match citations by path, title unanswered start pages', async () => {
    const pages = [
      { path: 'index', title: 'Introduction' },
      { path: 'guides/start', title: 'Start & go' },
      { path: 'guides/never', title: 'Never cited' },
    ];
    await recordExport('se_old', 'docs.example.com', '2026-11-01T01:00:00.000Z', [...pages, { path: 'old/page', title: 'Old' }]);
    await recordExport('se_new', 'docs.example.com', '2026-11-02T01:00:00.000Z', pages);
    await recordExport('se_other', 'other.example.com', '2026-11-02T01:00:00.000Z', [{ path: 'index', title: 'Other home' }]);
    // A failed later job does not replace the latest completed one.
    await warehouseRecorder(path, new FakeClock()).recordJob({ ...job('se_failed', '2026-11-03T00:00:00.000Z', 'failed'), error: 'boom' },
      { domain: 'docs.example.com', version: null });

    await addTurn('c1', '2026-11-02T10:00:00Z', 'unanswered', 'https://docs.example.com/guides/start', ['https://docs.example.com/guides/start/', 'https://docs.example.com/']);
    await addTurn('c1', '2026-11-02T10:01:00Z', 'unanswered', 'https://docs.example.com/guides/start', ['https://docs.example.com/guides/start.html']);
    await addTurn('c2', '2026-11-02T11:00:00Z', 'answered', 'https://docs.example.com/', ['https://docs.example.com/guides/start']);
    await addTurn('c3', '2026-11-02T12:00:00Z', 'unanswered', null, []);
    await addTurn('c4', '2026-11-02T13:00:00Z', 'unanswered', 'https://other.example.com/', []);

    expect(await rows('SELECT domain, job_id FROM latest_static_exports ORDER BY domain')).toEqual([
      { domain: 'docs.example.com', job_id: 'se_new' }, { domain: 'other.example.com', job_id: 'se_other' },
    ]);
    expect(await rows('SELECT domain, path, title FROM pages_never_cited')).toEqual([
      { domain: 'docs.example.com', path: 'guides/never', title: 'Never cited' },
    ]);
    expect(await rows('SELECT domain, path, CAST(citations AS INTEGER) AS citations, CAST(conversations AS INTEGER) AS conversations FROM pages_by_citations')).toEqual([
      { domain: 'docs.example.com', path: 'guides/start', citations: 3, conversations: 2 },
      { domain: 'docs.example.com', path: 'index', citations: 1, conversations: 1 },
      // The source's host is not compared: the other domain's index matches the same path.
      { domain: 'other.example.com', path: 'index', citations: 1, conversations: 1 },
      { domain: 'docs.example.com', path: 'guides/never', citations: 0, conversations: 0 },
    ]);
    expect(await rows(`SELECT page_path, title, domain, CAST(unanswered_turns AS INTEGER) AS turns, CAST(conversations AS INTEGER) AS conversations
                       FROM unanswered_by_page_title ORDER BY page_path`)).toEqual([
      { page_path: '(unknown)', title: null, domain: null, turns: 1, conversations: 1 },
      // Several domains hold `index`: the one equal to page_url's host wins.
      { page_path: '/', title: 'Other home', domain: 'other.example.com', turns: 1, conversations: 1 },
      { page_path: '/guides/start', title: 'Start & go', domain: 'docs.example.com', turns: 2, conversations: 1 },
    ]);
  });

  it('a job\'s pages are replaced, not appended, when it is recorded again', async () => {
    await recordExport('se_a', 'docs.example.com', '2026-11-01T01:00:00.000Z', [{ path: 'index', title: 'A' }, { path: 'b', title: 'B' }]);
    await recordExport('se_a', 'docs.example.com', '2026-11-01T01:00:00.000Z', [{ path: 'index', title: 'A2' }]);
    expect(await rows('SELECT path, title FROM site_pages')).toEqual([{ path: 'index', title: 'A2' }]);
  });
});
