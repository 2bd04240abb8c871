// `docs-etl schedule`: fires jobs on cron ticks (node-cron). One job runs at a time: a tick that
// comes while a run is going is skipped and logged, never queued and never run in parallel (the
// jobs share the warehouse, which has one writer). On abort the run in flight stops at its
// checkpoint and the scheduler resolves.
import { createTask, validateDetailed, type ScheduledTask } from 'node-cron';
import { UsageError, messageOf } from '../core/errors.js';
import { checkTimeZone } from '../core/time-zone.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';

export interface ScheduledJob {
  name: string;
  cron: string;
  /** Resolves to the run's exit code; 0 ok, 3 budget (a normal outcome for a tick), else failed. */
  run(signal: AbortSignal): Promise<number>;
  /**
   * Asked at start and after each of this job's runs (never during one): the cron its ticks follow
   * from now on (default: always `cron`). The catch-up mode (catch-up.ts) answers hourly while a
   * backfill is left. A change replaces the job's ticks; the one-run-at-a-time rule is unchanged.
   */
  cronNow?: () => Promise<string>;
}

export interface SchedulerOptions {
  jobs: ScheduledJob[];
  timezone?: string;
  /** Run the first job once right away, before the first tick. */
  runNow?: boolean;
  logger: Logger;
  signal: AbortSignal;
  /** The run times of RunEvent (default: the system clock); the ticks themselves are node-cron's. */
  clock?: Clock;
  /** Called once the ticks are set, before any run: each job and its first tick. */
  onStart?: (jobs: PlannedJob[]) => void;
  /** Called after each run (the command's line per run, tests). `nextRun`: the job's next tick. */
  onRun?: (e: RunEvent) => void;
}

export interface PlannedJob {
  job: string;
  cron: string;
  nextRun: Date | null;
}

export interface RunEvent {
  job: string;
  code: number;
  startedAt: Date;
  finishedAt: Date;
  nextRun: Date | null;
}

export function checkCron(expr: string, flag = '--cron'): void {
  const v = validateDetailed(expr);
  if (!v.valid) {
    const why = v.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    throw new UsageError(`invalid cron expression for ${flag} "${expr}"${why ? `: ${why}` : ''}`);
  }
}

export function checkTimezone(tz: string): void {
  checkTimeZone(tz, '--timezone');
}

export async function runScheduler(opts: SchedulerOptions): Promise<void> {
  const { logger, signal } = opts;
  for (const j of opts.jobs) checkCron(j.cron);
  if (opts.timezone) checkTimezone(opts.timezone);
  let running: Promise<void> | null = null;
  const clock = opts.clock ?? systemClock;
  const crons = new Map<ScheduledJob, string>();

  const fire = (job: ScheduledJob, reason: 'tick' | 'run-now') => {
    if (signal.aborted) return;
    if (running) {
      logger.warn({ job: job.name, reason }, 'tick skipped: the previous run is still going');
      return;
    }
    const startedAt = clock.now();
    logger.info({ job: job.name, reason }, 'run started');
    running = job
      .run(signal)
      .catch((err: unknown) => {
        logger.error({ job: job.name, err: messageOf(err) }, 'run failed');
        return 1;
      })
      .then(async (code) => {
        const finishedAt = clock.now();
        // Before the run's line, so its next run is the tick that really comes; a failure to change
        // the ticks keeps the current ones and never ends the scheduler.
        await retarget(job).catch((err: unknown) => logger.error({ job: job.name, err: messageOf(err) }, 'could not change the job\'s cron'));
        const level = code === 0 || code === 3 ? 'info' : 'error';
        logger[level]({ job: job.name, code, durationMs: finishedAt.getTime() - startedAt.getTime() }, 'run finished');
        const nextRun = tasks[opts.jobs.indexOf(job)]?.getNextRun() ?? null;
        opts.onRun?.({ job: job.name, code, startedAt, finishedAt, nextRun });
      })
      .finally(() => {
        running = null;
      });
  };

  const cronLogger = {
    info: (m: string) => logger.debug({ source: 'node-cron' }, m),
    warn: (m: string) => logger.warn({ source: 'node-cron' }, m),
    error: (m: string | Error) => logger.error({ source: 'node-cron' }, messageOf(m)),
    debug: (m: string | Error) => logger.debug({ source: 'node-cron' }, messageOf(m)),
  };
  const taskFor = (job: ScheduledJob, cron: string) =>
    createTask(cron, () => fire(job, 'tick'), { timezone: opts.timezone, name: job.name, logger: cronLogger });
  /** The cron a job follows now (cronNow), its ticks replaced when that changed; a failed answer keeps the ticks. */
  const cronOf = async (job: ScheduledJob): Promise<string> => {
    const was = crons.get(job) ?? job.cron;
    const cron = job.cronNow ? await job.cronNow().catch((err: unknown) => {
      logger.warn({ job: job.name, err: messageOf(err) }, 'could not tell which cron applies now; keeping the current one');
      return was;
    }) : job.cron;
    checkCron(cron);
    crons.set(job, cron);
    return cron;
  };
  const retarget = async (job: ScheduledJob) => {
    if (!job.cronNow || signal.aborted) return;
    const i = opts.jobs.indexOf(job);
    const was = crons.get(job);
    const cron = await cronOf(job);
    if (cron === was || signal.aborted) return;
    await tasks[i]?.destroy();
    if (signal.aborted) return; // shutting down: no new ticks
    const task = taskFor(job, cron);
    tasks[i] = task;
    await task.start();
    logger.info({ job: job.name, cron, next: task.getNextRun() }, 'job cron changed');
  };
  const tasks: ScheduledTask[] = [];
  for (const job of opts.jobs) tasks.push(taskFor(job, await cronOf(job)));
  for (const t of tasks) await t.start();
  const planned = opts.jobs.map((j, i) => ({ job: j.name, cron: crons.get(j) ?? j.cron, nextRun: tasks[i]?.getNextRun() ?? null }));
  logger.info({ jobs: planned.map((p) => ({ name: p.job, cron: p.cron, next: p.nextRun })) }, 'scheduler started');
  opts.onStart?.(planned);
  if (opts.runNow && opts.jobs[0]) fire(opts.jobs[0], 'run-now');

  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  for (const t of tasks) await t.destroy();
  // The run in flight sees the same signal and stops at its next checkpoint.
  if (running) {
    logger.info('waiting for the run in flight to reach its checkpoint');
    await running;
  }
  logger.info('scheduler stopped');
}
