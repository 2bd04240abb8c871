// A folder built once per test run and shared by every file that asks for it (the fixtures of
// presynced.ts and wall-clock-synced.ts): the vitest globalSetup (fixtures-setup.ts) provides the
// run's folder; the first file that asks builds it there under a lock (proper-lockfile), the others
// wait for the lock and use the result. Without that setup (another vitest config) each process
// builds its own, in its own temp folder: slower, the same result.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { inject } from 'vitest';

let ownRoot: string | undefined;

function fixturesRoot(): string {
  let root: string | undefined;
  try {
    root = inject('docsEtlFixturesDir');
  } catch {
    root = undefined;
  }
  if (root) return root;
  if (ownRoot === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'docs-etl-fixtures-own-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    ownRoot = dir;
  }
  return ownRoot;
}

/** The folder `name` of this run, built by `build` (into an empty folder) if no file built it yet. */
export async function builtOncePerRun(name: string, build: (dir: string) => Promise<void>): Promise<string> {
  const root = fixturesRoot();
  const done = join(root, name);
  const lockTarget = join(root, `${name}.lock-target`);
  mkdirSync(lockTarget, { recursive: true });
  // Another worker may be building it: wait for its lock (up to 5 min), then use what it built. The
  // holder refreshes the lock every minute; one not refreshed for 2 (a killed worker) is taken over.
  const release = await lockfile.lock(lockTarget, { retries: { retries: 600, minTimeout: 500, maxTimeout: 500 }, stale: 120_000 });
  try {
    if (!existsSync(done)) {
      const building = `${done}.building`;
      rmSync(building, { recursive: true, force: true });
      mkdirSync(building, { recursive: true });
      await build(building);
      renameSync(building, done);
    }
  } finally {
    await release();
  }
  return done;
}
