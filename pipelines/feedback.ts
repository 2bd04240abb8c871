// User feedback (GET /feedback): one entry per feedback; statuses change later (pending → resolved),
// so recent windows are re-read like late data, up to a week after.
import { feedbackRecordSchema } from '../src/contracts/analytics-feedback.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';

export const feedback = definePipeline({
  name: 'feedback',
  endpoint: '/v1/analytics/{projectId}/feedback',
  paging: { style: 'cursor', limit: 100, hasMore: true },
  recordsField: 'feedback',
  record: feedbackRecordSchema,
  key: ['project_id', 'id'],
  // Entries whose createdAt is null match no date range: a weekly sweep reads the endpoint whole.
  time: { field: 'createdAt', column: 'created_at', granularity: 'event', undated: { sweepEveryMs: 7 * 86_400_000 } },
  load: { stage: 'pipelines/feedback/stage.sql', merge: ['pipelines/feedback/merge.sql'] },
  tables: ['feedback'],
  lake: [{ name: 'feedback', select: 'lake/feedback.sql', layout: { by: 'project' }, order: ['created_at', 'id'] }],
  priority: 1,
  rereads: [
    { afterMs: 3 * 3_600_000, withinMs: 3 * 3_600_000 },
    { afterMs: 24 * 3_600_000, withinMs: 6 * 3_600_000 },
    { afterMs: 7 * 86_400_000, withinMs: 86_400_000 },
  ],
});
