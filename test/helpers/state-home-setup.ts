// Vitest setup (each test file): code run in the test process itself (runSync, resolveSyncConfig,
// runDoctor) that falls back to the per-user state folder (the default budget) writes into a temp
// folder, never the developer's or CI's real ~/.local/state. Children get a folder of their test
// inside it from cliEnv (helpers/cli.ts). Removed after the file's tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'docs-etl-test-xdg-'));
process.env.DOCS_ETL_TEST_STATE_HOME = dir;
process.env.XDG_STATE_HOME = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
