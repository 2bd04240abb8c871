// A shared pre-synced warehouse: files that only need "a warehouse after a first sync" copy one built
// once per test run, instead of each starting a sandbox history and syncing it from nothing.
//
// - Built once per run (built-once.ts): the first file that asks for a spec builds it, the others
//   wait and copy the result.
// - Deterministic: a fixed sandbox seed and a fixed clock (spec.now), so the history is the same on
//   every build; the spec's JSON names the built folder, so two specs never share one.
// - To sync more after it: start a sandbox with `fixtureSandboxOptions(spec, clock)` (the same seed,
//   sizes and clock, so the same history) and point a sync of `fixture.warehouse` at it; the key is
//   `spec.key`, the organization `keyFingerprint(spec.key)`.
import { cpSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runStaticExport } from '../../src/static-export/run.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type SandboxOptions } from '../../src/tools/sandbox/index.js';
import { builtOncePerRun } from './built-once.js';
import { FakeClock } from './fake-clock.js';
import { runFailures } from './run-failures.js';

export interface PresyncedSpec {
  /** The API key of the sandbox and the syncs. */
  key: string;
  projects: string[];
  /** The fixed clock of the sandbox and the syncs (ms since the epoch). */
  now: number;
  /** Sandbox history: its seed and sizes (defaultSandboxOptions' fields). */
  sandbox: { conversations: number; historyDays: number; seed: number; malformedRate?: number; site?: Partial<SandboxOptions['site']>; pagesPerSite?: number };
  /** Days of history the syncs read (backfillFrom = now - days). */
  backfillDays: number;
  /** Full syncs of every pipeline, one after the other (threads are read by the second). */
  syncs: number;
  /** A static export of this domain after the syncs. */
  staticExportDomain?: string;
}

export interface PresyncedWarehouse {
  /** The test's own copy of the state folder. */
  dir: string;
  /** Its warehouse file. */
  warehouse: string;
}

/** The sandbox options that serve the spec's history (for tests that sync more after the fixture). */
export function fixtureSandboxOptions(spec: PresyncedSpec, clock: FakeClock): SandboxOptions {
  const { site, pagesPerSite, ...history } = spec.sandbox;
  return defaultSandboxOptions({
    apiKeys: [spec.key], projects: spec.projects, clock, ...history, site: site as SandboxOptions['site'],
    staticExport: { ...defaultSandboxOptions().staticExport, jobDurationMs: 2000, ...(pagesPerSite ? { pagesPerSite } : {}) },
  });
}

/** A copy of the spec's pre-synced state folder in `destDir` (built first if this run has none yet). */
export async function presyncedWarehouse(spec: PresyncedSpec, destDir: string): Promise<PresyncedWarehouse> {
  const built = await builtOncePerRun(createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16), (dir) => build(spec, dir));
  cpSync(built, destDir, { recursive: true });
  return { dir: destDir, warehouse: join(destDir, 'w.duckdb') };
}

async function build(spec: PresyncedSpec, dir: string): Promise<void> {
  const clock = new FakeClock(spec.now);
  const sb = await startSandbox(fixtureSandboxOptions(spec, clock));
  try {
    const warehouse = join(dir, 'w.duckdb');
    const cfg = defaultSyncConfig(warehouse, spec.projects.map((projectId) => ({
      projectId, apiKey: spec.key, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(spec.key),
      backfillFrom: new Date(spec.now - spec.backfillDays * 86_400_000),
    })), { rate: { limit: 100_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, budgetDir: join(dir, 'budget'), pipelines: PIPELINES.map((p) => p.name) });
    for (let i = 0; i < spec.syncs; i++) {
      const r = await runSync({ clock, logger: silentLogger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, cfg, PIPELINES);
      if (r.exitCode !== 0) throw new Error(`the fixture's sync ${i + 1} exited ${r.exitCode}: ${runFailures(r.runs)}`);
    }
    if (spec.staticExportDomain) {
      await runStaticExport(
        { domain: spec.staticExportDomain, outDir: join(dir, 'exports'), warehousePath: warehouse, timeoutMs: 120_000, pollIntervalMs: 500, keep: 2 },
        { baseUrl: sb.url, apiKey: spec.key, clock, logger: silentLogger, retry: { attempts: 4, baseMs: 10, maxMs: 50 }, random: () => 0.5 },
      );
    }
  } finally {
    await sb.close();
  }
}
