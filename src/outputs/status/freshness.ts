// Freshness SLAs (config `freshness`): how old a stream's newest record or coverage head may get.
// Keys: "project/pipeline", "pipeline" or "default" (the most specific one applies); values are
// durations ("6h"). A stream older than its SLA while its runs succeed is stale: the silent failure
// (an upstream outage, a revoked export, a wrong project) that no exit code shows.
import { formatDuration, parseDuration } from '../../core/duration.js';
import type { Status, StreamStatus } from './collect-status.js';

export type FreshnessSla = ReadonlyMap<string, number>;

/** Parses the config object; a bad duration is a UsageError naming the key. */
export function parseFreshness(raw: Record<string, string>): FreshnessSla {
  return new Map(Object.entries(raw).map(([k, v]) => [k, parseDuration(v, `freshness.${k}`)]));
}

export function slaFor(sla: FreshnessSla, projectId: string, pipeline: string): number | null {
  return sla.get(`${projectId}/${pipeline}`) ?? sla.get(pipeline) ?? sla.get('default') ?? null;
}

export interface Staleness { project_id: string; pipeline: string; what: 'newest record' | 'coverage head'; age_ms: number; sla_ms: number }

/** Succeeded runs only: a failing stream is reported as failing, not (also) as stale. */
const SUCCEEDING = new Set(['succeeded', 'budget_exhausted', 'running']);

/** The stream's staleness, or null when fresh, without an SLA, or not succeeding. */
export function staleness(x: StreamStatus, nowMs: number, sla: FreshnessSla): Staleness | null {
  const limit = slaFor(sla, x.project_id, x.pipeline);
  if (limit === null || !x.last_run || !SUCCEEDING.has(x.last_run.status)) return null;
  const ages: [Staleness['what'], string | null][] = [['newest record', x.newest_record_at], ['coverage head', x.head_at]];
  for (const [what, at] of ages) {
    if (at === null) continue;
    const age = nowMs - Date.parse(at);
    if (age > limit) return { project_id: x.project_id, pipeline: x.pipeline, what, age_ms: age, sla_ms: limit };
  }
  return null;
}

export function staleStreams(s: Status, sla: FreshnessSla): Staleness[] {
  const now = Date.parse(s.checked_at);
  return s.streams.map((x) => staleness(x, now, sla)).filter((x): x is Staleness => x !== null);
}

/** `acme/assistant_conversations: stale: newest record 7h ago, over its freshness SLA of 6h` */
export function staleLine(x: Staleness): string {
  return `${x.project_id}/${x.pipeline}: stale: ${x.what} ${formatDuration(x.age_ms)} ago, over its freshness SLA of ${formatDuration(x.sla_ms)}`;
}
