// What a sync (or a scheduled tick) does for operations, wired through SyncDeps: counts the API's
// responses; before the publish, in the writer, stores them and the alert state and works out the
// alerts of this run's state changes; after the run, posts those (within their deadline) and writes
// the metrics textfile. Nothing here fails the sync: a problem is one warning in the log.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Clock } from '../../core/clock.js';
import { messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { OpsSettings } from '../../config/ops-config.js';
import type { SyncConfig } from '../../config/sync-config.js';
import type { SyncDeps } from '../../sync/run/sync.js';
import type { ProjectRunSummary } from '../../sync/run/summary.js';
import { collectStatus } from '../status/collect-status.js';
import { checkVerdict, DEFAULT_MAX_AGE_MS, type CheckOptions } from '../status/check-verdict.js';
import { writeMetricsFile } from '../metrics/metrics-file.js';
import { createRequestCounter } from '../metrics/request-counts.js';
import { snapshotView, statusInputOf } from '../metrics/snapshot-view.js';
import { jsonAlert, type JsonAlert } from './alert-body.js';
import { currentConditions } from './alert-conditions.js';
import { applyConditions } from './alert-state.js';
import { deliverAlerts } from './deliver.js';

export interface OpsHooks {
  syncDeps: Pick<SyncDeps, 'onResponse' | 'beforePublish'>;
  /** After runSync: delivers the run's alerts and writes the textfile. */
  afterRun(): Promise<void>;
  /** What `status --check` is asked, for the metrics server too. */
  check: CheckOptions;
}

export function createOpsHooks(d: { clock: Clock; logger: Logger }, cfg: SyncConfig, ops: OpsSettings): OpsHooks {
  const counter = createRequestCounter();
  const check: CheckOptions = { maxAgeMs: DEFAULT_MAX_AGE_MS, rereads: cfg.plan.rereads, freshness: ops.freshness };
  let pending: JsonAlert[] = [];
  const beforePublish = async (conn: DuckDBConnection, runs: ProjectRunSummary[]) => {
    await counter.write(conn, runs);
    try {
      const status = await collectStatus(statusInputOf(cfg, conn, d.clock));
      const verdict = await checkVerdict(conn, d.clock, status, check);
      const { conditions, judged } = await currentConditions({ conn, status, facts: verdict.facts, runs, settings: ops });
      const changes = await applyConditions(conn, d.clock, status.streams, conditions, judged);
      pending = changes.map((c) => jsonAlert(c, status.streams.find((x) => x.project_id === c.project_id && x.pipeline === c.pipeline), verdict.line));
      for (const a of pending) d.logger.info({ event: a.event, project: a.project, pipeline: a.pipeline, reason: a.reason }, 'alert state changed');
    } catch (err) {
      d.logger.warn({ err: messageOf(err) }, 'alert state not updated; the next run compares again');
    }
  };
  return {
    check,
    syncDeps: { onResponse: (e) => counter.onResponse(e), beforePublish },
    async afterRun() {
      const alerts = pending;
      pending = [];
      if (alerts.length && ops.alerts.length) await deliverAlerts(alerts, ops.alerts, { clock: d.clock, logger: d.logger, deadlineMs: ops.alertDeadlineMs });
      if (ops.metricsFile) {
        try {
          const view = await snapshotView(cfg, d.clock, check);
          if (view) await writeMetricsFile(ops.metricsFile, view);
        } catch (err) {
          d.logger.warn({ file: ops.metricsFile, err: messageOf(err) }, 'metrics file not written');
        }
      }
    },
  };
}
