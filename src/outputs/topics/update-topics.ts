// The topic step for every project of a run (sync's one hook, `docs-etl topics --rebuild`). A
// project whose step fails keeps its previous topics: the failure is logged as a warning and the
// run goes on (topics are derived data; the next run computes them again).
import type { DuckDBConnection } from '@duckdb/node-api';
import { messageOf } from '../../core/errors.js';
import type { TopicSettings } from './topic-settings.js';
import { withMemoryLimit } from '../../warehouse/memory-pool.js';
import { runTopicStep, type TopicStepDeps, type TopicStepResult } from './topic-step.js';
import { dropTempTables } from './temp-tables.js';

export interface TopicUpdate {
  results: TopicStepResult[];
  failed: { projectId: string; error: string }[];
}

export interface TopicUpdateOptions {
  /** Compute even when the unanswered turns did not change (`docs-etl topics --rebuild`). */
  force?: boolean;
  /** A smaller DuckDB pool each project's step runs under first (sync: memory-pool.ts stepMemoryLimit); unset: the connection's. */
  pool?: string | null;
}

export async function updateGapTopics(
  deps: TopicStepDeps, conn: DuckDBConnection, projectIds: readonly string[], settings: TopicSettings, opts: TopicUpdateOptions = {},
): Promise<TopicUpdate> {
  const { force = false, pool = null } = opts;
  const out: TopicUpdate = { results: [], failed: [] };
  for (const projectId of projectIds) {
    try {
      // Out of memory in the smaller pool runs the step again at the whole limit (it is safe to
      // repeat: temporary tables, one transaction at the end); a failure after that is caught here.
      const r = await withMemoryLimit(conn, pool, () => runTopicStep(deps, conn, projectId, settings, force));
      out.results.push(r);
      deps.logger.info({
        projectId, status: r.status, turns: r.turns, questions: r.questions, questionsSkipped: r.questionsSkipped, topics: r.topics,
        topicsKeptId: r.topicsKeptId, ms: Math.round(r.durationMs), peakRssMb: Math.round(r.peakRssBytes / 1048576),
      }, r.status === 'computed' ? 'gap topics computed' : 'gap topics unchanged');
      if (r.questionsSkipped > 0) {
        deps.logger.warn({ projectId, questionsSkipped: r.questionsSkipped, maxQuestions: settings.maxQuestions }, 'gap topics: the least asked questions were over the topicMaxQuestions cap and left out');
      }
    } catch (err) {
      out.failed.push({ projectId, error: messageOf(err) });
      deps.logger.warn({ projectId, err: messageOf(err) }, 'gap topics failed; the previous topics stay; the next run computes them again');
    } finally {
      // The step's temporary tables hold memory DuckDB cannot evict (temp-tables.ts): none outlives it.
      await dropTempTables(conn);
    }
  }
  return out;
}
