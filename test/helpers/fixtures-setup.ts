// vitest globalSetup: one folder per test run for the shared pre-synced fixtures (presynced.ts),
// given to every test file (inject('docsEtlFixturesDir')) and removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    docsEtlFixturesDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'docs-etl-fixtures-'));
  project.provide('docsEtlFixturesDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
