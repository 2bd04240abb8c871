// Page views per day (GET /views): per page and site-wide, human and AI traffic. The API counts
// over the requested range, so each local day is one window, re-read once its late data settled.
import { pageTrafficRecordSchema, trafficPageSchema } from '../src/contracts/analytics-traffic.js';
import type { PipelineDefinition } from '../src/sync/pipeline/definition.js';
import { DAILY_REREADS } from './daily.js';

export const pageViews = {
  name: 'page_views',
  endpoint: '/v1/analytics/{projectId}/views',
  paging: { style: 'offset', limit: 250 },
  recordsField: 'views',
  record: pageTrafficRecordSchema,
  page: trafficPageSchema,
  key: ['project_id', 'day', 'path'],
  time: { field: null, column: 'window_from', granularity: 'day' },
  load: { stage: 'pipelines/page-traffic/stage.sql', merge: ['pipelines/page-views/merge.sql'], atomicWindows: true },
  tables: ['page_views_daily', 'site_views_daily'],
  lake: [
    { name: 'page_views_daily', select: 'lake/page-views-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day', 'path'] },
    { name: 'site_views_daily', select: 'lake/site-views-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day'] },
  ],
  priority: 2,
  rereads: DAILY_REREADS,
  defaultHistoryDays: 30,
} as const satisfies PipelineDefinition;
