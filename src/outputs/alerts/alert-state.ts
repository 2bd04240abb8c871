// One alert per change of a stream's state, not one per run: the conditions that hold are kept in
// the warehouse (alert_state), written by the run that holds the writer lock, so runs of separate
// processes (cron) compare against the same state. A condition that starts gives its event; one
// that clears gives `recovered`.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Clock } from '../../core/clock.js';
import type { AlertCondition, AlertEvent } from './alert-events.js';
import { streamKey, type Conditions } from './alert-conditions.js';

export interface AlertChange {
  event: AlertEvent;
  /** For `recovered`: the condition that cleared. */
  cleared: AlertCondition | null;
  project_id: string;
  pipeline: string;
  /** When the condition started (for `recovered`, when the cleared one had started). */
  since: string;
  reason: string;
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/** Compares with the stored state, stores the new one, and returns the changes (starts, then recoveries). */
export async function applyConditions(
  conn: DuckDBConnection, clock: Clock, streams: readonly { project_id: string; pipeline: string }[], now: Conditions, judged: ReadonlySet<string>,
): Promise<AlertChange[]> {
  const stored = (await conn.runAndReadAll('SELECT project_id, pipeline, event, since, reason FROM alert_state')).getRowObjectsJS();
  const held = new Map(stored.map((r) => [`${String(r.project_id)}/${String(r.pipeline)}\u0000${String(r.event)}`, r]));
  const at = clock.now();
  const changes: AlertChange[] = [];
  for (const s of streams) {
    const key = streamKey(s.project_id, s.pipeline);
    const current = now.get(key) ?? new Map<AlertCondition, string>();
    for (const [c, reason] of current) {
      if (held.has(`${key}\u0000${c}`)) continue;
      await conn.run('INSERT INTO alert_state VALUES ($p, $pl, $e, $at::TIMESTAMPTZ, $r)', { p: s.project_id, pl: s.pipeline, e: c, at: at.toISOString(), r: reason });
      changes.push({ event: c, cleared: null, project_id: s.project_id, pipeline: s.pipeline, since: at.toISOString(), reason });
    }
  }
  for (const [k, r] of held) {
    const [key, c] = k.split('\u0000') as [string, AlertCondition];
    // Quarantine is a run's figure: a stream this run did not read keeps its state.
    if (now.get(key)?.has(c) || (c === 'quarantine' && !judged.has(key))) continue;
    if (!now.has(key)) continue; // a stream no longer reported (removed): left as it was
    await conn.run('DELETE FROM alert_state WHERE project_id = $p AND pipeline = $pl AND event = $e', { p: String(r.project_id), pl: String(r.pipeline), e: c });
    changes.push({
      event: 'recovered', cleared: c, project_id: String(r.project_id), pipeline: String(r.pipeline), since: iso(r.since),
      reason: `${c} cleared (was: ${String(r.reason)})`,
    });
  }
  return changes;
}
