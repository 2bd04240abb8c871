// A job's visible state is a pure function of the clock (no timers): queued for the first 10% of
// the duration, then running with progress and pageCount growing, then completed; jobs for a
// failing domain stop at 50% with an error. updatedAt is the instant the visible state last changed.
import type { StaticExportJob } from '../../../contracts/static-export.js';
import type { SitePage } from './site.js';

export interface JobRecord {
  jobId: string;
  /** The organization (API key) that started it; other organizations get 404. */
  owner: string;
  domain: string;
  version: string | null;
  /** Pages of the export, in site order. */
  pages: SitePage[];
  createdAtMs: number;
  durationMs: number;
  fails: boolean;
}

const QUEUED_FRACTION = 0.1;
const FAIL_FRACTION = 0.5;

export function jobView(job: JobRecord, nowMs: number): StaticExportJob {
  const d = Math.max(0, job.durationMs);
  const elapsed = Math.max(0, nowMs - job.createdAtMs);
  const total = job.pages.length;
  const base = { jobId: job.jobId, createdAt: iso(job.createdAtMs) };
  const queuedFor = d * QUEUED_FRACTION;
  const runFor = d - queuedFor;
  /** The instant at which `progress` was first reached. */
  const reachedAt = (progress: number) => job.createdAtMs + queuedFor + (runFor * progress) / 100;

  if (job.fails && elapsed >= d * FAIL_FRACTION) {
    const progress = progressAt(d * FAIL_FRACTION, queuedFor, runFor);
    return {
      ...base, status: 'failed', progress, pageCount: pagesAt(progress, total),
      updatedAt: iso(job.createdAtMs + d * FAIL_FRACTION),
      error: `Rendering failed for page "${job.pages[Math.floor(total / 2)]?.path ?? 'index'}": the build step timed out after 300 seconds.`,
    };
  }
  if (elapsed >= d) {
    return { ...base, status: 'completed', progress: 100, pageCount: total, updatedAt: iso(job.createdAtMs + d) };
  }
  if (elapsed < queuedFor) {
    return { ...base, status: 'queued', progress: 0, pageCount: 0, updatedAt: base.createdAt };
  }
  const progress = progressAt(elapsed, queuedFor, runFor);
  return { ...base, status: 'running', progress, pageCount: pagesAt(progress, total), updatedAt: iso(reachedAt(progress)) };
}

/** Integer percentage while running: 0..99 (100 only once completed). */
function progressAt(elapsed: number, queuedFor: number, runFor: number): number {
  if (runFor <= 0) return 99;
  return Math.min(99, Math.max(0, Math.floor(((elapsed - queuedFor) / runFor) * 100)));
}

function pagesAt(progress: number, total: number): number {
  return Math.min(total, Math.floor((total * progress) / 100));
}

function iso(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}
