// Polls a job until it is completed or failed, at a fixed interval on the injected clock (so an
// abort ends the wait at once), and reports every observation; stops at the run's deadline.
import type { StaticExportJob } from '../contracts/static-export.js';
import type { WaitOptions } from './deadline.js';
import { sleepOrStop } from '../sync/api/retry.js';
import { timeoutError } from './outcomes.js';

export interface PollOptions extends WaitOptions {
  /** Called with each fresh observation and the one before it (transitions are logged by the caller). */
  onUpdate(job: StaticExportJob, previous: StaticExportJob): Promise<void> | void;
}

export function isFinished(job: StaticExportJob): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

export async function pollUntilFinished(first: StaticExportJob, o: PollOptions): Promise<StaticExportJob> {
  let job = first;
  while (!isFinished(job)) {
    if (o.deadline.passed()) throw timeoutError(job, o.timeoutMs, 'completion');
    await sleepOrStop(o.clock, Math.max(1, Math.min(o.intervalMs, o.deadline.remainingMs())), o.signal);
    const next = await o.api.getJob(job.jobId);
    await o.onUpdate(next, job);
    job = next;
  }
  return job;
}
