// Fixtures for the report tests: a warehouse synced from the sandbox over real HTTP (once per run, copied),
// hostile text written into it through real DuckDB, and one headless Chromium per test file that
// records every console message, page error and request of a page opened from disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { warehouseRecorder } from '../../src/static-export/record.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { defaultReadPath, publishSnapshot } from '../../src/sync/publish/snapshot.js';
import { wallClockSyncedWarehouse, type WallClockSpec } from '../helpers/wall-clock-synced.js';

export const KEY = 'mint_report_test_secret_key_77';
export const PROJECT = 'demo';

/**
 * The report and topics tests' history: 3,000 turns of the sandbox's last 30 days, synced over real
 * HTTP with the wall clock once per test run (test/helpers/wall-clock-synced.ts).
 */
const REPORT_HISTORY: WallClockSpec = { key: KEY, project: PROJECT, conversations: 3000, seed: 5 };

/** The test's own copy of the synced state folder in `dir` (warehouse, read snapshot, budget); returns its warehouse. */
export async function syncedWarehouse(dir: string): Promise<string> {
  return (await wallClockSyncedWarehouse(REPORT_HISTORY, dir)).warehouse;
}

/** Questions are user input: these must show as text, never run or load anything. */
export const HOSTILE = {
  question: '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> how do I\u2028escape </script> & <!-- this?',
  category: '</script><script>window.__pwned = 3</script>',
  pagePath: '/"><img src=x onerror="window.__pwned = 4">',
  sourceTitle: '<b>bold</b><img src=x onerror="window.__pwned = 5">',
  sourceUrl: 'javascript:window.__pwned = 6',
  times: 40,
};

/** Adds HOSTILE.times unanswered turns (one conversation each) in the last hours, each citing the hostile source. */
export async function addHostileTurns(warehouse: string): Promise<void> {
  const wh = await openWarehouse(warehouse);
  try {
    await wh.conn.run(`
      INSERT INTO conversations
      SELECT $project, 'hostile-' || i, now() - to_minutes(CAST(i AS BIGINT)), $q, 'no idea', 'answer', 'unanswered', $cat,
             'https://docs.example.com' || $page, $page, NULL, now(), now(), now(), NULL
      FROM range(${HOSTILE.times}) r(i)`, { project: PROJECT, q: HOSTILE.question, cat: HOSTILE.category, page: HOSTILE.pagePath });
    await wh.conn.run(`
      INSERT INTO sources SELECT project_id, id, occurred_at, 1, $title, $url FROM conversations WHERE id LIKE 'hostile-%'`,
    { title: HOSTILE.sourceTitle, url: HOSTILE.sourceUrl });
    // Written behind sync's back: publish, as every writer does, so readers see them.
    await publishSnapshot(wh.conn, wh.path, defaultReadPath(wh.path));
  } finally {
    wh.close();
  }
}

/** A static export inventory: two pages the sandbox's conversations cite and start on, and two never cited (one with a hostile title). */
export const INVENTORY = {
  domain: 'docs.example.com',
  cited: [{ path: 'troubleshooting/faq', title: 'FAQ & <friends>' }, { path: 'guides/webhooks', title: 'Webhooks' }],
  neverCited: [{ path: 'zz/never-a', title: '<img src=x onerror="window.__pwned = 7">' }, { path: 'zz/never-b', title: null }],
};

export async function addInventory(warehouse: string): Promise<void> {
  const at = new Date().toISOString();
  await warehouseRecorder(warehouse, new FakeClock(Date.now())).recordExport({
    job: { jobId: 'se_report_test', status: 'completed', progress: 100, pageCount: 4, createdAt: at, updatedAt: at },
    context: { domain: INVENTORY.domain, version: null },
    bundle: { sizeBytes: 10, sha256: 'ab', archivePath: '/x/bundle.tar.gz', linkExpiresAt: at },
    pages: [...INVENTORY.cited, ...INVENTORY.neverCited].map((p) => ({ ...p, bytes: 1234 })),
    removedArchives: [],
  });
}

/** The flags the CI machine's Chromium needs (README of the machine: no background networking, no sandbox as root). */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];
export const CHROMIUM = '/usr/bin/chromium';

export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'docs-etl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  page: Page;
  url: string;
  /** Console messages of type error or warning, and uncaught page errors. */
  problems: string[];
  /** Every request the page made, by URL. */
  requests: string[];
}

export async function openReport(context: BrowserContext, file: string): Promise<OpenedPage> {
  const page = await context.newPage();
  const opened: OpenedPage = { page, url: pathToFileURL(file).href, problems: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') opened.problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => opened.problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => opened.requests.push(r.url()));
  await page.goto(opened.url, { waitUntil: 'load' });
  return opened;
}

/** Distinct colours in a PNG screenshot, counted by the browser itself (a blank page has one). */
export async function distinctColours(context: BrowserContext, png: Buffer): Promise<number> {
  const page = await context.newPage();
  try {
    return await page.evaluate(`(async () => {
      const img = new Image();
      img.src = 'data:image/png;base64,${png.toString('base64')}';
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const g = canvas.getContext('2d');
      g.drawImage(img, 0, 0);
      const px = g.getImageData(0, 0, img.width, img.height).data;
      const seen = new Set();
      for (let i = 0; i < px.length; i += 4) seen.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
      return seen.size;
    })()`) as number;
  } finally {
    await page.close();
  }
}
