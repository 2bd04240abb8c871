// Where assistant queries come from, per day (GET /assistant/caller-stats: web, api, other): one
// answer per local day, the whole body being the record.
import { callerStatsSchema } from '../src/contracts/analytics-traffic.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';
import { DAILY_REREADS } from './daily.js';

export const assistantCallers = definePipeline({
  name: 'assistant_callers',
  endpoint: '/v1/analytics/{projectId}/assistant/caller-stats',
  paging: { style: 'single' },
  recordsField: null,
  record: callerStatsSchema,
  key: ['project_id', 'day'],
  time: { field: null, column: 'window_from', granularity: 'day' },
  load: { stage: 'pipelines/assistant-callers/stage.sql', merge: { kind: 'replace-day', changed: ['total'] } },
  tables: [{ name: 'assistant_callers_daily', rows: 'record', columns: { web: 'BIGINT', api: 'BIGINT', other: 'BIGINT', total: 'BIGINT' } }],
  lake: [{ name: 'assistant_callers_daily', select: 'lake/assistant-callers-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day'] }],
  priority: 5,
  rereads: DAILY_REREADS,
});
