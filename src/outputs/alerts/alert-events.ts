// The alert events (docs/operations.md): a stream enters a state (failed … gap-topic) once, and
// leaves it with `recovered`.
export const ALERT_EVENTS = ['failed', 'recovered', 'stale', 'stuck', 'rate-limited', 'quarantine', 'gap-topic'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];
/** Longest a webhook delivery may take, connect and answer together (config alertDeadline). */
export const ALERT_DEADLINE_MS = 10_000;
/** The states a stream can be in (every event but `recovered`, which is leaving one). */
export type AlertCondition = Exclude<AlertEvent, 'recovered'>;
