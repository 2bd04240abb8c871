// Unique visitors per day (GET /visitors): per page and site-wide; `total` is deduplicated across
// human and AI (it does not equal human + ai). The API counts over the requested range, so each
// local day is one window, re-read once its late data settled.
import { pageTrafficRecordSchema, trafficPageSchema } from '../src/contracts/analytics-traffic.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';
import { DAILY_REREADS } from './daily.js';

export const pageVisitors = definePipeline({
  name: 'page_visitors',
  endpoint: '/v1/analytics/{projectId}/visitors',
  paging: { style: 'offset', limit: 250 },
  recordsField: 'visitors',
  record: pageTrafficRecordSchema,
  page: trafficPageSchema,
  key: ['project_id', 'day', 'path'],
  time: { field: null, column: 'window_from', granularity: 'day' },
  load: { stage: 'pipelines/page-traffic/stage.sql', merge: { kind: 'replace-day', changed: ['human', 'ai', 'total'] } },
  tables: [
    { name: 'page_visitors_daily', rows: 'record', columns: { path: 'VARCHAR', human: 'BIGINT', ai: 'BIGINT', total: 'BIGINT' } },
    { name: 'site_visitors_daily', rows: 'day', columns: { human: 'BIGINT?', ai: 'BIGINT?', total: 'BIGINT?' } },
  ],
  lake: [
    { name: 'page_visitors_daily', select: 'lake/page-visitors-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day', 'path'] },
    { name: 'site_visitors_daily', select: 'lake/site-visitors-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day'] },
  ],
  label: 'visitors',
  reportCoverage: true,
  priority: 3,
  rereads: DAILY_REREADS,
});
