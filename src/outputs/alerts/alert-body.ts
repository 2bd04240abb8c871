// The bodies an alert is POSTed with (docs/operations.md, Alert bodies). `json`: one documented
// object per alert; `slack`: an incoming-webhook message (text).
import type { StreamStatus } from '../status/collect-status.js';
import type { AlertChange } from './alert-state.js';

export interface JsonAlert {
  event: string;
  project: string;
  pipeline: string;
  /** When the condition started (for `recovered`: when the cleared one had). ISO 8601. */
  since: string;
  reason: string;
  /** For `recovered`: the event that cleared; else null. */
  cleared: string | null;
  figures: {
    last_run_status: string | null;
    last_run_at: string | null;
    head_at: string | null;
    newest_record_at: string | null;
    quarantined: number | null;
  };
  /** The `status --check` line at the time of the alert. */
  status_line: string;
}

export function jsonAlert(c: AlertChange, stream: StreamStatus | undefined, statusLine: string): JsonAlert {
  return {
    event: c.event, project: c.project_id, pipeline: c.pipeline, since: c.since, reason: c.reason, cleared: c.cleared,
    figures: {
      last_run_status: stream?.last_run?.status ?? null, last_run_at: stream?.last_run?.started_at ?? null,
      head_at: stream?.head_at ?? null, newest_record_at: stream?.newest_record_at ?? null, quarantined: stream?.quarantined ?? null,
    },
    status_line: statusLine,
  };
}

export function slackAlert(a: JsonAlert): { text: string } {
  const mark = a.event === 'recovered' ? ':white_check_mark:' : ':rotating_light:';
  return { text: `${mark} docs-etl *${a.event}* ${a.project}/${a.pipeline}: ${a.reason} (since ${a.since})\n\`${a.status_line}\`` };
}
