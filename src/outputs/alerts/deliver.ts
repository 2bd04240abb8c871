// Posts alerts to the configured webhooks (undici): each with a bounded retry and backoff, all
// within one total deadline per run (default 10 s). A dead or slow endpoint never fails the sync
// nor delays it past the deadline; what was not delivered is reported in one log line per run,
// naming the environment variable, never the URL (the webhook's secret).
import { Agent, request, type Dispatcher } from 'undici';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { AlertSink } from '../../config/ops-config.js';
import { slackAlert, type JsonAlert } from './alert-body.js';
import { ALERT_DEADLINE_MS } from './alert-events.js';

const ATTEMPTS = 3;
const BACKOFF_MS = 250;

export interface DeliveryOptions { clock: Clock; logger: Logger; deadlineMs?: number }

/** Delivers each alert to each sink that subscribes to its event; returns how many were not delivered. */
export async function deliverAlerts(alerts: readonly JsonAlert[], sinks: readonly AlertSink[], o: DeliveryOptions): Promise<number> {
  const deadline = AbortSignal.timeout(o.deadlineMs ?? ALERT_DEADLINE_MS);
  const failures: { sink: string; reason: string }[] = [];
  // Its own connections, closed at the end: no idle keep-alive socket holds the process open.
  const agent = new Agent({ connect: { timeout: o.deadlineMs ?? ALERT_DEADLINE_MS } });
  try {
    await Promise.all(sinks.map(async (sink) => {
      // One sink's alerts in order (a `failed` before its `recovered`).
      for (const a of alerts.filter((x) => sink.on.includes(x.event as never))) {
        const reason = await post(sink, a, { deadline, clock: o.clock, agent });
        if (reason) failures.push({ sink: sink.urlEnv, reason });
      }
    }));
  } finally {
    await agent.destroy().catch(() => {});
  }
  if (failures.length) {
    o.logger.warn({ undelivered: failures.length, sinks: [...new Set(failures.map((f) => f.sink))], reason: failures[0]!.reason },
      'alerts not delivered (the sync is not affected)');
  }
  return failures.length;
}

/** null: delivered; else why not (a code or status, never the URL). */
async function post(sink: AlertSink, a: JsonAlert, c: { deadline: AbortSignal; clock: Clock; agent: Dispatcher }): Promise<string | null> {
  const { deadline, clock } = c;
  const body = JSON.stringify(sink.format === 'slack' ? slackAlert(a) : a);
  let why = 'deadline passed';
  for (let attempt = 0; attempt < ATTEMPTS && !deadline.aborted; attempt++) {
    if (attempt) await clock.sleep(BACKOFF_MS * 2 ** (attempt - 1), deadline);
    if (deadline.aborted) break;
    try {
      const res = await request(sink.url, {
        method: 'POST', body, signal: deadline, dispatcher: c.agent, headers: { 'content-type': 'application/json', 'user-agent': 'docs-etl' },
      });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) return null;
      why = `HTTP ${res.statusCode}`;
      // A client error other than 408/429 will not change on a retry.
      if (res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429) return why;
    } catch (err) {
      why = deadline.aborted ? 'deadline passed' : String((err as NodeJS.ErrnoException).code ?? (err as Error).name ?? 'error');
    }
  }
  return why;
}
