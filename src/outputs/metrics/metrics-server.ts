// `schedule --metrics-listen`: GET /metrics (Prometheus text, prom-client), /healthz (200 while the
// scheduler loop is alive) and /readyz (200 when `status --check` would exit 0, else 503 with its
// line). Every scrape reads the published snapshot afresh, as `status` does, so the values are the
// ones `status --json` shows at that moment.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageOf } from '../../core/errors.js';
import { NO_SNAPSHOT_LINE } from '../status/unpublished-status.js';
import type { ListenAddress } from './listen-address.js';
import type { OpsMetrics } from './ops-metrics.js';
import type { OpsView } from './ops-view.js';

export interface MetricsServerDeps {
  metrics: OpsMetrics;
  /** The current view; null before the first publish. */
  view: () => Promise<OpsView | null>;
  alive: () => boolean;
  /** Hears a failed read (one line, logged by the caller). */
  onError: (message: string) => void;
}

export interface MetricsServer { host: string; port: number; close(): Promise<void> }

export async function startMetricsServer(at: ListenAddress, deps: MetricsServerDeps): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    handle(req, res, deps).catch((err: unknown) => {
      const line = `unhealthy: cannot read the status: ${messageOf(err).split('\n')[0]}`;
      deps.onError(line);
      send(res, 503, line);
    });
  });
  // A scraper's idle keep-alive connection must not hold the process at shutdown.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  return {
    host: at.host, port: a.port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function send(res: ServerResponse, code: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(code, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(text.endsWith('\n') ? text : `${text}\n`);
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: MetricsServerDeps): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
  if (path === '/healthz') return deps.alive() ? send(res, 200, 'ok') : send(res, 503, 'the scheduler loop has stopped');
  if (path === '/readyz') {
    const view = await deps.view();
    if (!view) return send(res, 503, `unhealthy: ${NO_SNAPSHOT_LINE}`);
    return send(res, view.verdict.healthy ? 200 : 503, view.verdict.line);
  }
  if (path === '/metrics') {
    const view = await deps.view();
    if (view) deps.metrics.update(view);
    return send(res, 200, await deps.metrics.registry.metrics(), deps.metrics.registry.contentType);
  }
  return send(res, 404, 'not found: /metrics, /healthz, /readyz');
}
