// Which alert conditions hold for each stream now: failed, stale, stuck (status --check's stuck and
// overdue re-read rules), rate-limited (a 429 block holds), quarantine (this run quarantined more
// than quarantineAlert) and gap-topic (an unanswered topic spiked). Read from the same Status and
// check facts as `status --check`, so an alert and the check never disagree.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { OpsSettings } from '../../config/ops-config.js';
import type { ProjectRunSummary } from '../../sync/run/summary.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import type { Status } from '../status/collect-status.js';
import type { HealthFacts } from '../status/health-check.js';
import { staleLine, staleness } from '../status/freshness.js';
import type { AlertCondition } from './alert-events.js';

/** A topic alerts when its last 7 days reach this many unanswered turns (and at least doubled). */
export const GAP_TOPIC_FLOOR = 10;
/** Statuses that are not a failure (as `status --check`). */
const NOT_FAILED = new Set(['succeeded', 'budget_exhausted', 'running']);

export const streamKey = (projectId: string, pipeline: string) => `${projectId}/${pipeline}`;

/** Per stream ("project/pipeline"), the conditions that hold and why. */
export type Conditions = Map<string, Map<AlertCondition, string>>;

export interface ConditionInput {
  conn: DuckDBConnection;
  status: Status;
  facts: HealthFacts;
  /** This run's streams: quarantine is judged on them only (others keep their state). */
  runs: readonly ProjectRunSummary[];
  settings: Pick<OpsSettings, 'freshness' | 'quarantineAlert'>;
}

export async function currentConditions(i: ConditionInput): Promise<{ conditions: Conditions; judged: Set<string> }> {
  const now = Date.parse(i.status.checked_at);
  const conditions: Conditions = new Map();
  const judged = new Set<string>();
  const add = (key: string, c: AlertCondition, reason: string) => conditions.get(key)?.set(c, reason);
  const blocked = new Map(i.status.budget.filter((b) => b.blocked_until).map((b) => [b.organization, b.blocked_until!]));
  for (const x of i.status.streams) {
    const key = streamKey(x.project_id, x.pipeline);
    conditions.set(key, new Map());
    const r = x.last_run;
    if (r && !NOT_FAILED.has(r.status)) add(key, 'failed', `last run ${r.status}${r.error ? `: ${r.error}` : ''}`);
    const stale = staleness(x, now, i.settings.freshness);
    if (stale) add(key, 'stale', staleLine(stale).slice(key.length + 2));
    const until = blocked.get(x.organization);
    if (until) add(key, 'rate-limited', `the API answered 429: blocked until ${until}`);
  }
  for (const s of i.facts.stuck) add(streamKey(s.project_id, s.pipeline), 'stuck', `stopped on the budget in the same open window (${s.window}) on ${s.runs} consecutive runs since ${s.since}`);
  for (const o of i.facts.overdue) add(streamKey(o.project_id, o.pipeline), 'stuck', `a due ${o.purpose} read (${o.interval}) is past its deadline`);
  for (const r of i.runs) {
    const key = streamKey(r.projectId, r.pipeline);
    judged.add(key);
    const q = i.settings.quarantineAlert;
    const records = r.upserted + r.quarantined;
    if ((q.count !== null && r.quarantined > q.count) || (q.share !== null && records > 0 && r.quarantined > q.share * records)) {
      add(key, 'quarantine', `the run quarantined ${r.quarantined} of ${records} records`);
    }
  }
  for (const t of (await i.conn.runAndReadAll(sqlFile('ops/gap-topic-spikes.sql'), { floor: GAP_TOPIC_FLOOR })).getRowObjectsJS()) {
    const key = streamKey(String(t.project_id), 'assistant_conversations');
    if (!conditions.get(key)?.has('gap-topic')) {
      add(key, 'gap-topic', `unanswered topic "${String(t.label)}": ${Number(t.turns_last_7d)} turns in the last 7 days, ${Number(t.turns_prev_7d)} the 7 before`);
    }
  }
  return { conditions, judged };
}
