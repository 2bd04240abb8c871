// Checks of what the user asks for, before any request: bad input is a usage error (exit 2).
import { FatalError, UsageError } from '../core/errors.js';
import { HOSTNAME, PAGE_PATH } from '../contracts/static-export.js';

/**
 * Job ids become directory names, so only a safe alphabet is accepted (the API's ids are
 * `se_` + 16 hex, though the contract declares no pattern).
 */
export const SAFE_JOB_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function checkDomain(domain: string): string {
  if (!HOSTNAME.test(domain)) {
    throw new UsageError(`--domain "${domain}" is not a hostname: give it without protocol, slash or path (e.g. docs.example.com)`);
  }
  return domain.toLowerCase();
}

/** `--paths index,guides/start` → ['index', 'guides/start']; each a page path without `/` or extension. */
export function parsePaths(text: string): string[] {
  const paths = [...new Set(text.split(',').map((p) => p.trim()).filter(Boolean))];
  if (paths.length === 0) throw new UsageError('--paths is empty: give page paths separated by commas, e.g. index,guides/start');
  for (const p of paths) {
    if (!PAGE_PATH.test(p) || /\.html?$/i.test(p)) {
      throw new UsageError(`--paths entry "${p}" is not a page path: no leading slash, no extension (e.g. guides/getting-started)`);
    }
  }
  return paths;
}

export function checkJobId(jobId: string): string {
  if (!SAFE_JOB_ID.test(jobId)) throw new UsageError(`--job "${jobId}" is not a job id (e.g. se_3f9a2c1b8e7d4a06)`);
  return jobId;
}

/** What a request asks for, checked before any request or warehouse read: a job to resume, else a domain to start one. */
export type JobRequest = { jobId: string } | { domain: string };

export function checkJobRequest(req: { jobId?: string; paths?: string[]; domain?: string }): JobRequest {
  if (req.jobId) {
    const jobId = checkJobId(req.jobId);
    if (req.paths) throw new UsageError('--paths cannot be used with --job: the pages of a job are fixed when it starts');
    return { jobId };
  }
  if (!req.domain) throw new UsageError('--domain is required (or --job to resume an existing job)');
  return { domain: checkDomain(req.domain) };
}

/** The API's job id, checked before it names a directory. */
export function safeJobIdFromApi(jobId: string): string {
  if (!SAFE_JOB_ID.test(jobId)) throw new FatalError(`the API returned a job id unusable as a directory name: ${JSON.stringify(jobId.slice(0, 60))}`);
  return jobId;
}
