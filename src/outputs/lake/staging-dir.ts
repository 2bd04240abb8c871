// Where files bound for object storage are written before their upload: a folder per export,
// `docs-etl-lake-<pid>-<random>`, under the warehouse's state folder (never the system's temp
// folder: a small tmpfs fails a large file, and nothing would ever remove what a killed export
// left there). A folder whose process is gone is a killed export's leftover: removed when the next
// export starts staging.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pidAlive } from '../../core/owner-lock.js';

const PREFIX = 'docs-etl-lake-';

/** A fresh staging folder under `root` (default: the system temp folder), stale siblings removed first. */
export function makeStagingDir(root: string | undefined): string {
  const base = root ?? tmpdir();
  mkdirSync(base, { recursive: true });
  for (const name of readdirSync(base)) {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !pidAlive(Number(pid))) rmSync(join(base, name), { recursive: true, force: true });
  }
  return mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
}
