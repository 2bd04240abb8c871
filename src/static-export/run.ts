// One static export, stage by stage: start (or resume) the job → poll until finished → get a
// presigned link → download and verify → page inventory → retention → warehouse → values file.
// Everything it needs is passed in; the key goes only to the API client.
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Dispatcher } from 'undici';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { FatalError, RetriableError, StoppedError, UsageError, messageOf } from '../core/errors.js';
import { redactUrl } from '../core/secrets.js';
import type { BundleResponse, StaticExportJob } from '../contracts/static-export.js';
import { createStaticExportApi, type StaticExportApi } from './client.js';
import { deadlineAfter } from './deadline.js';
import { pollUntilFinished } from './poll.js';
import { awaitBundleLink } from './bundle-link.js';
import { downloadBundle } from './download.js';
import { applyRetention } from './retention.js';
import { removeStaleParts } from './stale-parts.js';
import { warehouseRecorder, type JobContext, type Recorder } from './record.js';
import { writeValuesFile } from './values-file.js';
import { checkDomain, checkJobRequest, safeJobIdFromApi } from './inputs.js';
import { JobFailedError, resumeHint } from './outcomes.js';
import { noProgressLine, type ProgressLine } from './progress-line.js';
import { DEFAULT_RETRY, type RetryPolicy } from '../sync/api/retry.js';

export interface StaticExportRequest {
  /** Required for a new job; for `jobId`, taken from the warehouse when recorded there. */
  domain?: string;
  version?: string;
  /** Page paths (no leading slash, no extension); only for a new job. */
  paths?: string[];
  /** Resume this job instead of starting one: fresh link, download, record. */
  jobId?: string;
  /** Bundles go to OUT/<domain>/<jobId>/bundle.tar.gz. */
  outDir: string;
  warehousePath: string;
  /** Where the read snapshot is published (default: next to the warehouse, see snapshot.ts). */
  readPath?: string;
  valuesFile?: string;
  timeoutMs: number;
  pollIntervalMs: number;
  /** Exports kept per domain (the one just written included). */
  keep: number;
  /** Total deadline of one API request (--request-timeout; default 60s); downloads derive theirs from it. */
  requestTimeoutMs?: number;
}

export interface StaticExportDeps {
  /** API base, e.g. https://api.mintlify.com (DOCS_API_BASE_URL). */
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  /** A TTY status line; none by default. */
  progress?: ProgressLine;
  retry?: RetryPolicy;
  random?: () => number;
  downloadAttempts?: number;
  dispatcher?: Dispatcher;
  /** Warehouse writes; default: open `warehousePath` for each write (see record.ts, recorderOn). */
  recorder?: Recorder;
}

export interface StaticExportResult {
  jobId: string;
  domain: string;
  version: string | null;
  pages: number;
  sizeBytes: number;
  sha256: string;
  archivePath: string;
  /** Expiry of the last presigned link: the one in the values file when one was written. */
  bundleExpiresAt: string;
  valuesFile: string | null;
  removedExports: string[];
}

export async function runStaticExport(req: StaticExportRequest, deps: StaticExportDeps): Promise<StaticExportResult> {
  const { clock, logger, signal } = deps;
  const retry = deps.retry ?? DEFAULT_RETRY;
  const recorder = deps.recorder ?? warehouseRecorder(req.warehousePath, clock, req.readPath);
  const deadline = deadlineAfter(clock, req.timeoutMs);
  const api = createStaticExportApi({
    baseUrl: deps.baseUrl, apiKey: deps.apiKey, clock, logger, signal, retry, random: deps.random, dispatcher: deps.dispatcher,
    timeoutMs: req.requestTimeoutMs, remainingMs: () => deadline.remainingMs(),
  });
  const progress = deps.progress ?? noProgressLine;

  const { job: first, context } = await startOrResume(req, api, recorder, logger);
  const jobId = first.jobId;
  const record = (job: StaticExportJob) => recordTolerantly(recorder, job, context, logger);
  await record(first);
  try {
    const wait = { api, clock, signal, intervalMs: req.pollIntervalMs, deadline, timeoutMs: req.timeoutMs };
    const job = await pollUntilFinished(first, {
      ...wait,
      onUpdate: async (next, prev) => {
        progress.update(`static export ${jobId}: ${next.status} ${Math.round(next.progress)}% (${next.pageCount} pages)`);
        if (next.status === prev.status) return;
        logger.info({ jobId, from: prev.status, to: next.status, progress: next.progress, pageCount: next.pageCount }, 'static export job status changed');
        await record(next);
      },
    });
    progress.done();
    if (job.status === 'failed') throw new JobFailedError(job);

    const freshLink = (): Promise<BundleResponse> => awaitBundleLink(jobId, {
      ...wait,
      onNotReady: (message) => logger.info({ jobId, message }, 'bundle not ready yet (409), waiting'),
    }).then((link) => {
      logger.info({ jobId, url: redactUrl(link.bundleUrl), sizeBytes: link.sizeBytes, expiresAt: link.expiresAt }, 'bundle link issued');
      return link;
    });
    const domainDir = resolve(req.outDir, context.domain);
    const stale = await removeStaleParts(domainDir);
    if (stale.length) logger.info({ domain: context.domain, removed: stale }, 'removed temp files of interrupted downloads');
    const bundle = await downloadBundle({
      jobId, dir: inside(resolve(req.outDir), join(domainDir, jobId)), link: null, freshLink,
      clock, logger, signal, retry, random: deps.random, attempts: deps.downloadAttempts, dispatcher: deps.dispatcher,
      timeoutMs: req.requestTimeoutMs,
    });
    const archivePath = resolve(bundle.path);
    logger.info({ jobId, archivePath, sizeBytes: bundle.sizeBytes, sha256: bundle.sha256, pages: bundle.contents.pages.length },
      'bundle downloaded and verified');

    const retention = await applyRetention(resolve(req.outDir, context.domain), req.keep, jobId);
    if (retention.removed.length) logger.info({ domain: context.domain, removed: retention.removed }, 'older exports removed');

    // The deployment fetches the bundle later: give it a link with its full lifetime, not the
    // (possibly nearly spent) one the download used.
    const link = req.valuesFile ? await freshLink() : bundle.link;
    await recorder.recordExport({
      job, context, pages: bundle.contents.pages, removedArchives: retention.removed,
      bundle: { sizeBytes: bundle.sizeBytes, sha256: bundle.sha256, archivePath, linkExpiresAt: link.expiresAt },
    });
    if (req.valuesFile) {
      await writeValuesFile(req.valuesFile, {
        bundleUrl: link.bundleUrl, expiresAt: link.expiresAt, version: context.version, jobId, domain: context.domain,
      });
      logger.info({ jobId, valuesFile: req.valuesFile, expiresAt: link.expiresAt }, 'values file written');
    }
    return {
      jobId, domain: context.domain, version: context.version, pages: bundle.contents.pages.length,
      sizeBytes: bundle.sizeBytes, sha256: bundle.sha256, archivePath, bundleExpiresAt: link.expiresAt,
      valuesFile: req.valuesFile ?? null, removedExports: retention.removed,
    };
  } catch (err) {
    progress.done();
    if (err instanceof JobFailedError) {
      await record(err.job);
      throw err;
    }
    throw withResumeHint(err, jobId);
  }
}

async function startOrResume(
  req: StaticExportRequest, api: StaticExportApi, recorder: Recorder, logger: Logger,
): Promise<{ job: StaticExportJob; context: JobContext }> {
  const asked = checkJobRequest(req);
  if ('jobId' in asked) {
    const { jobId } = asked;
    const context = resolveContext(jobId, await recorder.lookup(jobId), req);
    const job = await api.getJob(jobId).catch((err) => { throw beforeJob(err); });
    logger.info({ jobId, domain: context.domain, status: job.status }, 'static export job resumed');
    return { job, context };
  }
  const { domain } = asked;
  const version = req.version ?? null;
  const job = await api.startJob({ domain, ...(version ? { version } : {}), ...(req.paths ? { paths: req.paths } : {}) })
    .catch((err) => { throw beforeJob(err); });
  safeJobIdFromApi(job.jobId);
  logger.info({ jobId: job.jobId, domain, version, paths: req.paths?.length ?? 'all' }, 'static export job started');
  return { job, context: { domain, version } };
}

/** `path` when it lies under `root`; the ids that name directories are checked, this is the last guard. */
function inside(root: string, path: string): string {
  const rel = relative(root, resolve(path));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new FatalError(`refusing to write outside ${root}: ${path}`);
  return path;
}

/** Domain and version of a resumed job: the warehouse's record wins; flags must agree with it. */
function resolveContext(jobId: string, known: JobContext | null, req: StaticExportRequest): JobContext {
  const domain = req.domain ? checkDomain(req.domain) : undefined;
  if (known) {
    if (domain && domain !== known.domain) throw new UsageError(`job ${jobId} is an export of ${known.domain}, not ${domain}`);
    if (req.version && known.version && req.version !== known.version) {
      throw new UsageError(`job ${jobId} was started with --version ${known.version}, not ${req.version}`);
    }
    return { domain: known.domain, version: known.version ?? req.version ?? null };
  }
  if (!domain) {
    throw new UsageError(`job ${jobId} is not recorded in the warehouse ${req.warehousePath}: add --domain so the bundle can be stored under its domain`);
  }
  return { domain, version: req.version ?? null };
}

async function recordTolerantly(recorder: Recorder, job: StaticExportJob, context: JobContext, logger: Logger): Promise<void> {
  try {
    await recorder.recordJob(job, context);
  } catch (err) {
    // A busy warehouse (another docs-etl writing) must not stop the export; the end writes it all.
    logger.warn({ jobId: job.jobId, err: messageOf(err) }, 'could not record the job status in the warehouse; continuing');
  }
}

/** Errors before a job exists: retries ran out → one clear line. */
function beforeJob(err: unknown): unknown {
  if (err instanceof RetriableError) return new FatalError(`the static export API did not answer usefully after retries: ${err.message}`);
  if (err instanceof StoppedError) return new StoppedError('stopped before a static export job was started');
  return err;
}

/** Errors after the job exists name it, so the user can resume with `--job`. */
function withResumeHint(err: unknown, jobId: string): unknown {
  const hint = resumeHint(jobId);
  if (err instanceof UsageError || (err instanceof FatalError && err.status === 404)) return err;
  if (messageOf(err).includes(hint)) return err;
  if (err instanceof StoppedError) return new StoppedError(`stopped before job ${jobId} was downloaded; ${hint}`);
  if (err instanceof FatalError) return new FatalError(`${err.message}; ${hint}`, err.status);
  if (err instanceof RetriableError) return new FatalError(`giving up after retries: ${err.message}; ${hint}`, err.status);
  return new FatalError(`${messageOf(err)}; ${hint}`);
}
