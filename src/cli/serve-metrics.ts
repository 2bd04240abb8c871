// `schedule --metrics-listen`: starts the metrics server beside the scheduler and says where it
// listens (`metrics on http://HOST:PORT/metrics`, once bound). /healthz answers 200 until close().
import type { SyncConfig } from '../config/sync-config.js';
import { systemClock } from '../core/clock.js';
import { FatalError, messageOf } from '../core/errors.js';
import type { CheckOptions } from '../outputs/status/check-verdict.js';
import { metricsUrl, type ListenAddress } from '../outputs/metrics/listen-address.js';
import { startMetricsServer } from '../outputs/metrics/metrics-server.js';
import { createOpsMetrics } from '../outputs/metrics/ops-metrics.js';
import { snapshotView } from '../outputs/metrics/snapshot-view.js';
import type { CliContext } from './context.js';

export async function serveMetrics(at: ListenAddress, cfg: SyncConfig, check: CheckOptions, ctx: CliContext): Promise<{ close(): Promise<void> }> {
  let alive = true;
  const server = await startMetricsServer(at, {
    metrics: createOpsMetrics(),
    view: () => snapshotView(cfg, systemClock, check),
    alive: () => alive,
    onError: (line) => ctx.logger.warn({ reason: line }, 'metrics: reading the status failed'),
  }).catch((err: unknown) => {
    throw new FatalError(`--metrics-listen ${at.host}:${at.port}: cannot listen: ${(err as NodeJS.ErrnoException).code ?? messageOf(err)}`);
  });
  ctx.stdout.write(`metrics on ${metricsUrl(server.host, server.port)}\n`);
  return {
    close: async () => {
      alive = false;
      await server.close();
    },
  };
}
