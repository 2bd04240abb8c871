// runStaticExport end to end against the sandbox over real HTTP, with a real DuckDB file. The fake
// clock is shared: the client's sleeps move the sandbox's time, so nothing waits for real.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { runStaticExport, type StaticExportRequest } from '../../src/static-export/run.js';
import { MSG } from '../../src/static-export/client.js';
import { FAIL_DOMAIN, FakeClock, KEY, NON_ENTERPRISE_KEY, capturedLogger, depsFor, laggingClock, sandboxWith } from './helpers.js';
import { allFiles, query } from './warehouse-helpers.js';
import { tempDir } from '../helpers/tmp.js';

let clock: FakeClock;
let sb: Sandbox;
let dir: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ dir, cleanup } = tempDir('se-pipeline-'));
  clock = new FakeClock();
  sb = await sandboxWith(clock, { jobDurationMs: 10_000, bundleTtlMs: 60_000, pagesPerSite: 40 });
});
afterEach(async () => {
  await sb.close();
  cleanup();
});

function request(over: Partial<StaticExportRequest> = {}): StaticExportRequest {
  return {
    domain: 'docs.example.com', outDir: join(dir, 'exports'), warehousePath: join(dir, 'warehouse.duckdb'),
    timeoutMs: 120_000, pollIntervalMs: 1_000, keep: 5, ...over,
  };
}

describe('runStaticExport', () => {
  it('job → progress → bundle → verified archive → warehouse rows equal the truth → values file', async () => {
    const log = capturedLogger();
    const valuesFile = join(dir, 'values.yaml');
    const r = await runStaticExport(request({ version: '2026-11-01', valuesFile }), depsFor(sb, clock, log.logger));

    const archive = resolve(dir, 'exports', 'docs.example.com', r.jobId, 'bundle.tar.gz');
    expect(r.archivePath).toBe(archive);
    const bytes = readFileSync(archive);
    expect(bytes.length).toBe(r.sizeBytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(r.sha256);
    const truth = sb.staticExport.truth(r.jobId)!;
    expect(r.pages).toBe(truth.length);

    const jobs = await query(join(dir, 'warehouse.duckdb'), 'SELECT * EXCLUDE (progress), CAST(progress AS INTEGER) AS progress FROM static_export_jobs');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      job_id: r.jobId, domain: 'docs.example.com', version: '2026-11-01', status: 'completed', progress: 100,
      page_count: truth.length, error: null, sha256: r.sha256, archive_path: archive, size_bytes: String(r.sizeBytes),
    });
    expect(jobs[0]!.finished_at).not.toBeNull();
    expect(Date.parse(String(jobs[0]!.bundle_expires_at))).toBe(Date.parse(r.bundleExpiresAt));
    const pages = await query(join(dir, 'warehouse.duckdb'), 'SELECT path, title, CAST(bytes AS INTEGER) AS bytes FROM site_pages WHERE job_id = $j ORDER BY path', { j: r.jobId });
    const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);
    expect(pages).toEqual([...truth].sort(byPath));

    const valuesText = readFileSync(valuesFile, 'utf8');
    const values = parseYaml(valuesText);
    expect(values).toEqual({ staticExport: { enabled: true, bundleUrl: expect.stringContaining(`/bundles/${r.jobId}/bundle.tar.gz?`), version: '2026-11-01' } });
    expect(valuesText).toContain(`# bundleUrl expires at ${r.bundleExpiresAt}: regenerate before then (docs-etl static-export --job ${r.jobId} --values-file ${valuesFile})`);
    expect((await fetch(values.staticExport.bundleUrl)).status).toBe(200);

    const lines = log.lines().map((l) => JSON.parse(l));
    const transitions = lines.filter((l) => l.msg === 'static export job status changed').map((l) => l.to);
    expect(transitions).toEqual(['running', 'completed']);
    expect(log.text()).not.toContain('X-Amz-Signature');
    expect(log.text()).toContain('bundle link issued');
    // The key is nowhere: logs, warehouse, archive dir, values file.
    expect(log.text()).not.toContain(KEY);
    for (const f of allFiles(dir)) expect(readFileSync(f).includes(KEY), f).toBe(false);
  });

  it('requests a fresh link when the old one has expired by the time it is used (by expiresAt)', async () => {
    await sb.close();
    sb = await sandboxWith(clock, { jobDurationMs: 10_000, bundleTtlMs: 1_000 });
    sb.staticExport.damageNextDownloads(1, 'truncate');
    const log = capturedLogger();
    // The backoff after the damaged download (≥2s on the fake clock) outlives the 1s link.
    const r = await runStaticExport(request(), depsFor(sb, clock, log.logger, { retry: { attempts: 4, baseMs: 4_000, maxMs: 8_000 } }));
    expect(sb.staticExport.linksIssued(r.jobId)).toBe(2);
    expect(log.text()).toContain('bundle link expired, requesting a fresh one');
    expect(existsSync(r.archivePath)).toBe(true);
  });

  it('requests a fresh link when storage answers 403 "Request has expired" (client clock behind)', async () => {
    await sb.close();
    sb = await sandboxWith(clock, { jobDurationMs: 10_000, bundleTtlMs: 1_000 });
    sb.staticExport.damageNextDownloads(1, 'truncate');
    const log = capturedLogger();
    const r = await runStaticExport(request(), depsFor(sb, laggingClock(clock, 10_000), log.logger, {
      retry: { attempts: 4, baseMs: 4_000, maxMs: 8_000 },
    }));
    expect(sb.staticExport.linksIssued(r.jobId)).toBe(2);
    expect(log.text()).toContain('bundle link refused by storage');
    expect(log.text()).toContain('Request has expired');
    expect(readFileSync(r.archivePath).length).toBe(r.sizeBytes);
  });

  it('a failed job: exit with its error, recorded as failed, nothing downloaded', async () => {
    const log = capturedLogger();
    const err = await runStaticExport(request({ domain: FAIL_DOMAIN }), depsFor(sb, clock, log.logger)).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^static export job se_[0-9a-f]{16} failed: Rendering failed/);
    const jobs = await query(join(dir, 'warehouse.duckdb'), 'SELECT status, error, finished_at FROM static_export_jobs');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.status).toBe('failed');
    expect(String(jobs[0]!.error)).toMatch(/Rendering failed/);
    expect(jobs[0]!.finished_at).not.toBeNull();
    expect(existsSync(join(dir, 'exports', FAIL_DOMAIN))).toBe(false);
  });

  it('a non-enterprise key and a rejected key give one clear line, without the key', async () => {
    const log = capturedLogger();
    const ne = await runStaticExport(request(), depsFor(sb, clock, log.logger, { apiKey: NON_ENTERPRISE_KEY })).catch((e: Error) => e);
    expect((ne as Error).message).toBe(MSG.notEnterprise);
    const bad = await runStaticExport(request(), depsFor(sb, clock, log.logger, { apiKey: 'mint_wrong_key_123' })).catch((e: Error) => e);
    expect((bad as Error).message).toBe('the API key was rejected (401): check DOCS_API_KEY');
    expect(log.text()).not.toContain('mint_wrong_key_123');
    expect(log.text()).not.toContain(NON_ENTERPRISE_KEY);
  });

  it('a truncated and a corrupted download are detected, deleted and retried; the final archive verifies', async () => {
    sb.staticExport.damageNextDownloads(2, 'alternate');
    const log = capturedLogger();
    const r = await runStaticExport(request(), depsFor(sb, clock, log.logger));
    const warnings = log.lines().map((l) => JSON.parse(l)).filter((l) => l.msg === 'bundle download damaged or failed, retrying');
    expect(warnings).toHaveLength(2);
    expect(warnings[0].err).toMatch(/size mismatch/);
    expect(warnings[1].err).toMatch(/cannot be read completely|zlib/);
    expect(createHash('sha256').update(readFileSync(r.archivePath)).digest('hex')).toBe(r.sha256);
    expect(readdirSync(join(dir, 'exports', 'docs.example.com', r.jobId))).toEqual(['bundle.tar.gz']);
  });

  it('a connection reset mid-download is retried', async () => {
    sb.staticExport.damageNextDownloads(1, 'reset');
    const r = await runStaticExport(request(), depsFor(sb, clock, capturedLogger().logger));
    expect(readFileSync(r.archivePath).length).toBe(r.sizeBytes);
  });

  it('gives up after the bounded attempts, leaving no partial file, and names the job to resume', async () => {
    sb.staticExport.damageNextDownloads(10, 'corrupt');
    const err = await runStaticExport(request(), depsFor(sb, clock, capturedLogger().logger, { downloadAttempts: 3 })).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/could not be downloaded intact after 3 attempts.*resume with: docs-etl static-export --job se_/);
    const jobId = /--job (se_[0-9a-f]+)/.exec((err as Error).message)![1]!;
    expect(readdirSync(join(dir, 'exports', 'docs.example.com', jobId))).toEqual([]);
  });

  it('times out with the job id to resume with; --job then finishes the export', async () => {
    const log = capturedLogger();
    const err = await runStaticExport(request({ timeoutMs: 3_000 }), depsFor(sb, clock, log.logger)).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^timed out after 3s waiting for completion of job se_[0-9a-f]{16} \((queued|running), \d+%, \d+ pages\); resume with: docs-etl static-export --job se_/);
    const jobId = /--job (se_[0-9a-f]+)/.exec((err as Error).message)![1]!;
    const before = await query(join(dir, 'warehouse.duckdb'), 'SELECT status FROM static_export_jobs WHERE job_id = $j', { j: jobId });
    expect(['queued', 'running']).toContain(before[0]!.status);

    // Resume: the domain comes from the warehouse.
    const r = await runStaticExport(request({ domain: undefined, jobId }), depsFor(sb, clock, log.logger));
    expect(r).toMatchObject({ jobId, domain: 'docs.example.com' });
    const after = await query(join(dir, 'warehouse.duckdb'), 'SELECT status FROM static_export_jobs');
    expect(after).toEqual([{ status: 'completed' }]);
    // Resuming a completed job again gives a fresh link and records it again.
    const again = await runStaticExport(request({ domain: undefined, jobId }), depsFor(sb, clock, log.logger));
    expect(again.sha256).toBe(r.sha256);
    expect(sb.staticExport.linksIssued(jobId)).toBe(2);
  });

  it('--job: unknown id is a clear error; a job missing from the warehouse needs --domain', async () => {
    const unknown = await runStaticExport(request({ domain: 'docs.example.com', jobId: 'se_0000000000000000' }), depsFor(sb, clock, capturedLogger().logger))
      .catch((e: Error) => e);
    expect((unknown as Error).message).toMatch(/^unknown job id se_0000000000000000 \(404\)/);
    const noDomain = await runStaticExport(request({ domain: undefined, jobId: 'se_0000000000000000' }), depsFor(sb, clock, capturedLogger().logger))
      .catch((e: Error) => e);
    expect((noDomain as Error).name).toBe('UsageError');
    expect((noDomain as Error).message).toMatch(/add --domain/);
  });

  it('keeps the newest --keep exports per domain', async () => {
    const deps = depsFor(sb, clock, capturedLogger().logger);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await runStaticExport(request({ keep: 2 }), deps)).jobId);
      await new Promise((r) => setTimeout(r, 20)); // distinct modification times
    }
    const dirs = readdirSync(join(dir, 'exports', 'docs.example.com')).sort();
    expect(dirs).toEqual([ids[1], ids[2]].sort());
    const rows = await query(join(dir, 'warehouse.duckdb'), 'SELECT job_id, archive_path FROM static_export_jobs ORDER BY created_at');
    expect(rows.find((x) => x.job_id === ids[0])!.archive_path).toBeNull();
    expect(rows.find((x) => x.job_id === ids[2])!.archive_path).not.toBeNull();
  });

  it('an abort while polling stops the run and names the job', async () => {
    const controller = new AbortController();
    const log = capturedLogger();
    const run = runStaticExport(request(), depsFor(sb, {
      now: () => clock.now(),
      sleep: async (ms, signal) => {
        controller.abort();
        await clock.sleep(ms, signal);
      },
    }, log.logger, { signal: controller.signal }));
    const err = await run.catch((e: Error) => e);
    expect((err as Error).name).toBe('StoppedError');
    expect((err as Error).message).toMatch(/--job se_/);
  });
});

