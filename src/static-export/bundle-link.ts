// Asks for a presigned bundle link. 409 means "not ready yet": wait and ask again, unless the job
// turns out to have failed. Each call gives a fresh link for the same files.
import type { BundleResponse, StaticExportJob } from '../contracts/static-export.js';
import { isNotReady } from './client.js';
import type { WaitOptions } from './deadline.js';
import { sleepOrStop } from '../sync/api/retry.js';
import { JobFailedError, timeoutError } from './outcomes.js';

export interface LinkOptions extends WaitOptions {
  onNotReady?(message: string, job: StaticExportJob): void;
}

export async function awaitBundleLink(jobId: string, o: LinkOptions): Promise<BundleResponse> {
  for (;;) {
    const r = await o.api.requestBundle(jobId);
    if (!isNotReady(r)) return r;
    const job = await o.api.getJob(jobId);
    if (job.status === 'failed') throw new JobFailedError(job);
    o.onNotReady?.(r.message, job);
    if (o.deadline.passed()) throw timeoutError(job, o.timeoutMs, 'the bundle');
    await sleepOrStop(o.clock, Math.max(1, Math.min(o.intervalMs, o.deadline.remainingMs())), o.signal);
  }
}
