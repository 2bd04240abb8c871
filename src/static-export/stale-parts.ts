// Temp files of bundle downloads (`.bundle.tar.gz.<pid>-<instance>.<random>.part`) are left behind
// when a process is killed. The next run removes those of processes that no longer run (and any
// untouched for an hour, e.g. of an older version), in every job directory of the domain; a live
// download of another process is left alone.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { INSTANCE, ownerAlive } from '../core/owner-lock.js';

export const PART_PREFIX = '.bundle.tar.gz.';
const STALE_MS = 3_600_000;
const OWNED = /^\.bundle\.tar\.gz\.(\d+)-([0-9a-f]+)\.[0-9a-f]+\.part$/;

/** This process's name for a new temp file (random part from the caller). */
export function partName(random: string): string {
  return `${PART_PREFIX}${process.pid}-${INSTANCE}.${random}.part`;
}

/** Removes stale `.part` files under `domainDir/<job>/`; returns their paths. */
export async function removeStaleParts(domainDir: string, nowMs = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const jobs = await readdir(domainDir, { withFileTypes: true }).catch(() => []);
  for (const job of jobs) {
    if (!job.isDirectory()) continue;
    const dir = join(domainDir, job.name);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.startsWith(PART_PREFIX) || !name.endsWith('.part')) continue;
      const path = join(dir, name);
      const st = await stat(path).catch(() => null);
      if (!st?.isFile()) continue;
      const m = OWNED.exec(name);
      const dead = m ? !ownerAlive({ pid: Number(m[1]), instance: m[2] }) : false;
      if (dead || nowMs - st.mtimeMs > STALE_MS) {
        await rm(path, { force: true });
        removed.push(path);
      }
    }
  }
  return removed;
}
