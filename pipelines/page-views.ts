// Page views per day (GET /views): per page and site-wide, human and AI traffic. The API counts
// over the requested range, so each local day is one window, re-read once its late data settled.
import { pageTrafficRecordSchema, trafficPageSchema } from '../src/contracts/analytics-traffic.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';
import { DAILY_REREADS } from './daily.js';

export const pageViews = definePipeline({
  name: 'page_views',
  endpoint: '/v1/analytics/{projectId}/views',
  paging: { style: 'offset', limit: 250 },
  recordsField: 'views',
  record: pageTrafficRecordSchema,
  page: trafficPageSchema,
  key: ['project_id', 'day', 'path'],
  time: { field: null, column: 'window_from', granularity: 'day' },
  load: { stage: 'pipelines/page-traffic/stage.sql', merge: { kind: 'replace-day', changed: ['human', 'ai', 'total'] } },
  tables: [
    { name: 'page_views_daily', rows: 'record', columns: { path: 'VARCHAR', human: 'BIGINT', ai: 'BIGINT', total: 'BIGINT' } },
    { name: 'site_views_daily', rows: 'day', columns: { human: 'BIGINT?', ai: 'BIGINT?', total: 'BIGINT?' } },
  ],
  lake: [
    { name: 'page_views_daily', select: 'lake/page-views-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day', 'path'] },
    { name: 'site_views_daily', select: 'lake/site-views-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day'] },
  ],
  label: 'page views',
  reportCoverage: true,
  priority: 2,
  rereads: DAILY_REREADS,
});
