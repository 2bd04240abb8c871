// How a static export run ends when it does not succeed: the job failed on the server (exit 1 with
// its error), or the run gave up waiting (exit 1 with the job id to resume with).
import { FatalError } from '../core/errors.js';
import type { StaticExportJob } from '../contracts/static-export.js';

export function resumeHint(jobId: string): string {
  return `resume with: docs-etl static-export --job ${jobId}`;
}

export class JobFailedError extends FatalError {
  override name = 'JobFailedError';
  constructor(readonly job: StaticExportJob) {
    super(`static export job ${job.jobId} failed: ${job.error ?? 'the API gave no error text'}`);
  }
}

export function timeoutError(job: StaticExportJob, timeoutMs: number, waitingFor: string): FatalError {
  const state = `${job.status}, ${Math.round(job.progress)}%, ${job.pageCount} pages`;
  return new FatalError(
    `timed out after ${formatMs(timeoutMs)} waiting for ${waitingFor} of job ${job.jobId} (${state}); ${resumeHint(job.jobId)}`,
  );
}

function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
