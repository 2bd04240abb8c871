// Keeps the newest `keep` exports of a domain: OUT/<domain>/<jobId>/bundle.tar.gz directories,
// newest by the bundle's modification time. The export just written is always kept (and counts as
// one). Directories without a bundle (a download in progress elsewhere) are left alone.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FILE } from './download.js';
import { SAFE_JOB_ID } from './inputs.js';

export interface RetentionResult {
  kept: string[];
  /** Removed job directories (full paths). */
  removed: string[];
}

export async function applyRetention(domainDir: string, keep: number, currentJobId: string): Promise<RetentionResult> {
  const exports: { jobId: string; dir: string; mtimeMs: number }[] = [];
  for (const entry of await readdir(domainDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !SAFE_JOB_ID.test(entry.name)) continue;
    const dir = join(domainDir, entry.name);
    const bundle = await stat(join(dir, BUNDLE_FILE)).catch(() => null);
    if (bundle?.isFile()) exports.push({ jobId: entry.name, dir, mtimeMs: bundle.mtimeMs });
  }
  exports.sort((a, b) => {
    if (a.jobId === currentJobId) return -1;
    if (b.jobId === currentJobId) return 1;
    return b.mtimeMs - a.mtimeMs || (a.jobId < b.jobId ? 1 : -1);
  });
  const n = Math.max(1, keep);
  const removed: string[] = [];
  for (const e of exports.slice(n)) {
    await rm(e.dir, { recursive: true, force: true });
    removed.push(e.dir);
  }
  return { kept: exports.slice(0, n).map((e) => e.dir), removed };
}
