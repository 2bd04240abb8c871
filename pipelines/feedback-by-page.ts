// Feedback counts per page and day (GET /feedback/by-page). The endpoint has no cursor and no
// offset: one answer of at most 100 paths. A day with more paths is asked again per source, then
// per source and status (the parts add up); a part still full is kept and the day marked truncated.
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, feedbackByPageRecordSchema } from '../src/contracts/analytics-feedback.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';
import { DAILY_REREADS } from './daily.js';

export const feedbackByPage = definePipeline({
  name: 'feedback_by_page',
  endpoint: '/v1/analytics/{projectId}/feedback/by-page',
  paging: { style: 'split', limit: 100, splits: [{ param: 'source', values: FEEDBACK_SOURCES }, { param: 'status', values: FEEDBACK_STATUSES }] },
  recordsField: 'feedback',
  record: feedbackByPageRecordSchema,
  key: ['project_id', 'day', 'path'],
  // Its own rule, in stage.sql: a day's answer is the sum of disjoint split parts (per source, then
  // status), so a path's counts ADD UP across the parts' pages instead of one read winning; only a
  // path listed twice within one answer (one page) counts once.
  tieBreak: { stage: "a path's counts add up across a day's split parts; a path repeated within one page counts once" },
  time: { field: null, column: 'window_from', granularity: 'day' },
  load: { stage: 'pipelines/feedback-by-page/stage.sql', merge: { kind: 'replace-day', changed: ['total'] } },
  tables: [{
    name: 'feedback_by_page_daily', rows: 'record',
    columns: { path: 'VARCHAR', thumbs_up: 'BIGINT', thumbs_down: 'BIGINT', code: 'BIGINT', total: 'BIGINT', truncated: { type: 'BOOLEAN', value: 'day' } },
  }],
  lake: [{ name: 'feedback_by_page_daily', select: 'lake/feedback-by-page-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day', 'path'] }],
  priority: 6,
  label: 'thumbs (feedback by page)',
  reportCoverage: true,
  rereads: DAILY_REREADS,
});
