// Saves the raw page bodies of a project's full history, exactly as the API serves them, by a plain
// undici loop over the cursor chain (limit=1000, no budget, no validation): the input of the DuckDB
// ceiling. Uses its own key so the sync's request count stays clean.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { PAGE_LIMIT } from '../../src/sync/api/analytics-client.js';

export interface CapturedPages {
  dir: string;
  pages: number;
  rows: number;
  bytes: number;
}

export async function capturePages(baseUrl: string, apiKey: string, projectId: string, dir: string): Promise<CapturedPages> {
  mkdirSync(dir, { recursive: true });
  let cursor: string | null = null;
  let pages = 0;
  let rows = 0;
  let bytes = 0;
  for (;;) {
    const url = new URL(`/v1/analytics/${encodeURIComponent(projectId)}/assistant`, baseUrl);
    url.searchParams.set('limit', String(PAGE_LIMIT));
    if (cursor) url.searchParams.set('cursor', cursor);
    const res = await request(url, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`capturing pages: ${res.statusCode} ${body.slice(0, 200)}`);
    const page = JSON.parse(body) as { conversations: unknown[]; nextCursor: string | null; hasMore: boolean };
    pages++;
    rows += page.conversations.length;
    bytes += Buffer.byteLength(body);
    writeFileSync(join(dir, `page-${String(pages).padStart(6, '0')}.json`), body);
    if (!page.hasMore || !page.nextCursor) return { dir, pages, rows, bytes };
    cursor = page.nextCursor;
  }
}
