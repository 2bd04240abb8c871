// The gap topics in the Parquet lake (docs/lake.md): recomputed after each sync for the recent
// period, so their files are rewritten when topics move. gap_topics is one file per project (a
// topic spans many days); its members by project and UTC day of the turn; the step's log one file.
import type { LakeTable } from '../../sync/pipeline/lake-table.js';

export const TOPIC_LAKE_TABLES: readonly LakeTable[] = [
  { name: 'gap_topics', select: 'lake/gap-topics.sql', layout: { by: 'project' }, order: ['topic_id'] },
  { name: 'gap_topic_members', select: 'lake/gap-topic-members.sql', layout: { by: 'project-day', column: 'occurred_at', type: 'instant' }, order: ['occurred_at', 'conversation_id', 'topic_id'] },
  { name: 'gap_topic_runs', select: 'lake/gap-topic-runs.sql', layout: { by: 'none' }, order: ['computed_at', 'project_id'] },
];
