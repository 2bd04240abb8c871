// The static export part of the sandbox: the three API endpoints under /v1/static-export/ and the
// presigned bundle downloads under /bundles/. The server calls `handle` for those prefixes.
// Choices where the contract is silent: unknown `paths` → 400 at start; POST bundle on a failed job
// → 409 (with the failure in the message); a non-enterprise key → 403 on all three endpoints; a job
// belongs to the organization (key) that started it, other keys get 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { SandboxOptions } from '../options.js';
import { startJobRequestSchema } from '../../../contracts/static-export.js';
import { BadRequest, bearerToken, readJsonBody, sendError, sendJson } from '../http-io.js';
import { jobView, type JobRecord } from './job-status.js';
import { sitePages } from './site.js';
import { renderSite } from './render.js';
import { tarGz } from './tar-gz.js';
import { presign } from './presign.js';
import { serveBundle, type DamageKind } from './bundle-download.js';

export type { DamageKind } from './bundle-download.js';

export interface TruthPage {
  path: string;
  title: string;
  bytes: number;
}

export interface StaticExportHandler {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** The pages of the job's site (path without `.html`), as the bundle holds them; undefined for an unknown job. */
  truth(jobId: string): TruthPage[] | undefined;
  /** The next `n` bundle downloads are damaged (sets `staticExport.damagedDownloads`). */
  damageNextDownloads(n: number, kind?: DamageKind): void;
  /** How many bundle links were issued for a job (tests: a fresh link was requested). */
  linksIssued(jobId: string): number;
}

export const MESSAGES = {
  auth: 'Authentication failed.',
  notEnterprise: 'Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan.',
  noJob: 'No job exists with the provided ID.',
  notFinished: 'The job has not finished yet, so a bundle cannot be generated.',
  invalid: 'The request body is invalid. Check that `domain` is a reachable hostname and that `paths` entries are valid page paths.',
} as const;

const JOB_PATH = /^\/v1\/static-export\/jobs\/([^/]+)$/;
const BUNDLE_PATH = /^\/v1\/static-export\/jobs\/([^/]+)\/bundle$/;

interface Built {
  archive: Buffer;
  truth: TruthPage[];
}

export function createStaticExportHandler(opts: SandboxOptions, baseUrl: () => string): StaticExportHandler {
  const secret = randomBytes(32);
  const jobs = new Map<string, JobRecord>();
  const built = new Map<string, Built>();
  const bundled = new Set<string>();
  const links = new Map<string, number>();
  let damageKind: DamageKind = 'alternate';
  let damagedServed = 0;

  /** Deterministic per job and cached: the same bytes however often it is bundled. */
  function build(job: JobRecord): Built {
    let b = built.get(job.jobId);
    if (!b) {
      const site = renderSite({ domain: job.domain, pages: job.pages, version: job.version, seed: opts.seed });
      const truth = job.pages.map((p) => ({ path: p.path, title: p.title, bytes: site.pageBytes.get(p.path) ?? 0 }));
      b = { archive: tarGz(site.files, new Date(job.createdAtMs)), truth };
      built.set(job.jobId, b);
    }
    return b;
  }

  function takeDamage(): Exclude<DamageKind, 'alternate'> | null {
    if (!(opts.staticExport.damagedDownloads > 0)) return null;
    opts.staticExport.damagedDownloads -= 1;
    const n = damagedServed++;
    return damageKind === 'alternate' ? (n % 2 === 0 ? 'truncate' : 'corrupt') : damageKind;
  }

  /** The caller's organization, or null when a response (401/403) was sent. */
  function authorize(req: IncomingMessage, res: ServerResponse): string | null {
    const key = bearerToken(req);
    if (key && opts.apiKeys.includes(key)) return key;
    if (key && opts.nonEnterpriseKeys.includes(key)) sendError(res, 403, MESSAGES.notEnterprise);
    else sendError(res, 401, MESSAGES.auth);
    return null;
  }

  async function startJob(req: IncomingMessage, res: ServerResponse, owner: string): Promise<void> {
    let body: unknown;
    try {
      body = await readJsonBody(req);
    } catch (err) {
      if (err instanceof BadRequest) return sendError(res, 400, `${MESSAGES.invalid} (${err.message})`);
      throw err;
    }
    const parsed = startJobRequestSchema.safeParse(body);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return sendError(res, 400, `${MESSAGES.invalid} (${why})`);
    }
    const { domain, version, paths } = parsed.data;
    const site = sitePages(domain, opts.seed, opts.staticExport.pagesPerSite);
    let pages = site;
    if (paths) {
      const wanted = new Set(paths);
      const unknown = [...wanted].filter((p) => !site.some((s) => s.path === p));
      if (wanted.size === 0 || unknown.length) {
        const why = wanted.size === 0 ? 'paths is empty' : `unknown page paths: ${unknown.slice(0, 10).join(', ')}`;
        return sendError(res, 400, `${MESSAGES.invalid} (${why})`);
      }
      pages = site.filter((s) => wanted.has(s.path));
    }
    const job: JobRecord = {
      jobId: `se_${randomBytes(8).toString('hex')}`,
      owner, domain: domain.toLowerCase(), version: version ?? null, pages,
      createdAtMs: opts.clock.now().getTime(),
      durationMs: opts.staticExport.jobDurationMs,
      fails: opts.staticExport.failDomains.some((d) => d.toLowerCase() === domain.toLowerCase()),
    };
    jobs.set(job.jobId, job);
    sendJson(res, 202, jobView(job, job.createdAtMs));
  }

  function bundle(res: ServerResponse, job: JobRecord): void {
    const now = opts.clock.now();
    const view = jobView(job, now.getTime());
    if (view.status === 'failed') return sendError(res, 409, `The job failed, so a bundle cannot be generated: ${view.error}`);
    if (view.status !== 'completed') return sendError(res, 409, MESSAGES.notFinished);
    const { archive } = build(job);
    bundled.add(job.jobId);
    links.set(job.jobId, (links.get(job.jobId) ?? 0) + 1);
    const link = presign(secret, baseUrl(), job.jobId, now, opts.staticExport.bundleTtlMs);
    sendJson(res, 200, { jobId: job.jobId, bundleUrl: link.url, sizeBytes: archive.length, expiresAt: link.expiresAt.toISOString() });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, '');
    const isJobs = path === '/v1/static-export/jobs';
    const jobMatch = JOB_PATH.exec(path);
    const bundleMatch = BUNDLE_PATH.exec(path);
    if (!isJobs && !jobMatch && !bundleMatch) return sendError(res, 404, 'Not found.');
    const method = isJobs || bundleMatch ? 'POST' : 'GET';
    if (req.method !== method) {
      res.setHeader('allow', method);
      return sendError(res, 405, 'Method not allowed.');
    }
    const owner = authorize(req, res);
    if (owner === null) return;
    if (isJobs) return startJob(req, res, owner);
    const job = jobs.get(safeDecode((jobMatch ?? bundleMatch)![1]!));
    if (!job || job.owner !== owner) return sendError(res, 404, MESSAGES.noJob);
    if (jobMatch) return sendJson(res, 200, jobView(job, opts.clock.now().getTime()));
    return bundle(res, job);
  }

  return {
    async handle(req, res, url) {
      if (url.pathname.startsWith('/v1/static-export/')) {
        await api(req, res, url);
        return true;
      }
      if (url.pathname.startsWith('/bundles/')) {
        serveBundle(req, res, url, {
          secret,
          now: () => opts.clock.now(),
          archive: (id) => {
            const job = jobs.get(id);
            return job && bundled.has(id) ? build(job).archive : undefined;
          },
          takeDamage,
        });
        return true;
      }
      return false;
    },
    truth(jobId) {
      const job = jobs.get(jobId);
      return job ? build(job).truth.map((p) => ({ ...p })) : undefined;
    },
    damageNextDownloads(n, kind = 'alternate') {
      opts.staticExport.damagedDownloads = Math.max(0, Math.floor(n));
      damageKind = kind;
      damagedServed = 0;
    },
    linksIssued(jobId) {
      return links.get(jobId) ?? 0;
    },
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
