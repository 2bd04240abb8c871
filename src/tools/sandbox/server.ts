// The sandbox's HTTP server (Node http). Routes: /__sandbox/* (test-only, loopback), the static
// export prefixes (delegated to the static export handler), /v1/analytics/* (the twin). Anything
// else is a 404 JSON; an unexpected exception is a 500 JSON. The Authorization header is never
// logged: request logs carry method, path and status only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConversationTurn } from '../../contracts/analytics.js';
import {
  aggregateTruth, feedbackTruth, type AggregateAnswers, type AggregateEndpoint, type FeedbackFilterSpec, type FeedbackRecord,
} from './aggregate-truth.js';
import { handleAnalytics } from './analytics-gateway.js';
import type { AssistantThread } from './assistant-thread.js';
import { AnalyticsTwin } from './analytics-twin.js';
import { bearerToken, sendError } from './http-io.js';
import type { SandboxOptions } from './options.js';
import type { LoggedRequest } from './request-log.js';
import type { TruthKeys, TruthRange } from './truth-keys.js';
import { createStaticExportHandler, type StaticExportHandler } from './static-export/handler.js';
import { handleTestRoute } from './test-routes.js';

export interface Sandbox {
  url: string;
  port: number;
  close(): Promise<void>;
  /** Ground truth: every turn visible now for the project, as served (valid records only), in a stable order. */
  truth(projectId: string): ConversationTurn[];
  /** The malformed records visible now (exactly what the API serves for them). */
  malformed(projectId: string): unknown[];
  /**
   * Ground truth for millions of turns, column-wise: the valid turns visible now in their current
   * version (id, timestampMs, visibleAt, queryCategory, resolutionStatus), optionally only those
   * whose instant is in [fromMs, toMs). Grouped by generation block, not in the served order.
   */
  truthKeys(projectId: string, range?: TruthRange): TruthKeys;
  /**
   * Number of valid turns visible at `atMs` (default now; past and future instants work), within
   * an optional [fromMs, toMs) range of their instants. New visible turns between two runs =
   * visibleCount(p, t2) - visibleCount(p, t1).
   */
  visibleCount(projectId: string, atMs?: number, range?: TruthRange): number;
  /**
   * Ground truth of GET …/feedback: the valid entries visible now, in their current version
   * (status as of now), in served order. With a range, only the entries the endpoint serves for
   * it: createdAt in [fromMs, toMs); an entry with a null createdAt matches no bounded range.
   */
  feedbackTruth(projectId: string, range?: TruthRange): FeedbackRecord[];
  /** The malformed feedback entries visible now (exactly as served), same order and range rule. */
  feedbackMalformed(projectId: string, range?: TruthRange): unknown[];
  /**
   * The full, unpaged answer of an aggregated endpoint for [fromMs, toMs) (null = unbounded), as
   * it would be served now: the body without its paging fields, every item in served order.
   * `filter` applies to 'feedback/by-page' (its source and status parameters).
   */
  aggregateTruth<E extends AggregateEndpoint>(
    projectId: string, endpoint: E, fromMs: number | null, toMs: number | null, filter?: FeedbackFilterSpec,
  ): AggregateAnswers[E];
  /** GET …/assistant/threads/{threadId} as served now, or null where it answers 404. */
  threadTruth(projectId: string, threadId: string): AssistantThread | null;
  /** Every API request (analytics and static export) made with this key: arrival, status (0 = reset), path. */
  requestLog(apiKey: string): LoggedRequest[];
  /** Forget every issued cursor (simulates expiry/restart): the next use of an old cursor gets 400. */
  expireCursors(): void;
  /** Change options at run time (faults, latency, rateLimit, malformedRate...). */
  configure(patch: Partial<SandboxOptions>): void;
  /** The static export part (its own test hooks). */
  staticExport: StaticExportHandler;
}

export async function startSandbox(input: SandboxOptions): Promise<Sandbox> {
  // A private copy: configure() mutates it, and the caller's object stays as it was.
  const opts: SandboxOptions = { ...input, staticExport: { ...input.staticExport } };
  const twin = new AnalyticsTwin(opts);
  let baseUrl = '';
  const staticExport = createStaticExportHandler(opts, () => baseUrl);

  const server = createServer({ keepAlive: true }, (req, res) => {
    const started = Date.now();
    void route(req, res).catch((err: unknown) => {
      opts.logger?.error({ err: err instanceof Error ? err.message : String(err), path: pathOf(req) }, 'sandbox request failed');
      if (!res.headersSent) sendError(res, 500, 'Server error');
      else res.destroy();
    });
    res.on('finish', () => {
      opts.logger?.debug({ method: req.method, path: pathOf(req), status: res.statusCode, ms: Date.now() - started }, 'sandbox request');
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    if (path.startsWith('/__sandbox/')) return handleTestRoute(twin, req, res, url);
    if (path.startsWith('/v1/analytics/')) return handleAnalytics(twin, req, res, url);
    if (path.startsWith('/v1/static-export/') || path.startsWith('/bundles/')) {
      logStaticExport(twin, req, res, url);
      if (await staticExport.handle(req, res, url)) return;
    }
    sendError(res, 404, 'Not found');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;

  return {
    url: baseUrl,
    port,
    staticExport,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
    truth: (projectId) => twin.truth(projectId),
    malformed: (projectId) => twin.malformed(projectId),
    truthKeys: (projectId, range) => twin.truthKeys(projectId, range),
    visibleCount: (projectId, atMs, range) => twin.visibleCount(projectId, atMs, range),
    feedbackTruth: (projectId, range) => feedbackTruth(twin, projectId, range),
    feedbackMalformed: (projectId, range) => feedbackTruth(twin, projectId, range, true),
    aggregateTruth: (projectId, endpoint, fromMs, toMs, filter) => aggregateTruth(twin, projectId, endpoint, fromMs, toMs, filter),
    threadTruth: (projectId, threadId) => twin.thread(projectId, threadId),
    requestLog: (apiKey) => twin.log.list(apiKey),
    expireCursors: () => twin.cursors.expireAll(),
    configure: (patch) => twin.configure(patch),
  };
}

/** Static export requests with a key go to the same request log (they are API requests too). */
function logStaticExport(twin: AnalyticsTwin, req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (!url.pathname.startsWith('/v1/')) return;
  const key = bearerToken(req);
  if (key === null) return;
  const entry = twin.log.record(key, twin.now(), url.pathname);
  res.on('finish', () => {
    entry.status = res.statusCode;
  });
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}
