// Vitest setup: code run in the test process itself (runSync, resolveSyncConfig, runDoctor) that
// falls back to the per-user state folder (the default budget) writes into a temp folder, never the
// developer's or CI's real ~/.local/state. Children get theirs from cliEnv (helpers/cli.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.DOCS_ETL_TEST_STATE_HOME) {
  const dir = mkdtempSync(join(tmpdir(), 'docs-etl-test-xdg-'));
  process.env.DOCS_ETL_TEST_STATE_HOME = dir;
  process.env.XDG_STATE_HOME = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}
