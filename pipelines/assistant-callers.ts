// Where assistant queries come from, per day (GET /assistant/caller-stats: web, api, other): one
// answer per local day, the whole body being the record.
import { callerStatsSchema } from '../src/contracts/analytics-traffic.js';
import type { PipelineDefinition } from '../src/sync/pipeline/definition.js';
import { DAILY_REREADS } from './daily.js';

export const assistantCallers = {
  name: 'assistant_callers',
  endpoint: '/v1/analytics/{projectId}/assistant/caller-stats',
  paging: { style: 'single' },
  recordsField: null,
  record: callerStatsSchema,
  key: ['project_id', 'day'],
  time: { field: null, column: 'window_from', granularity: 'day' },
  load: { stage: 'pipelines/assistant-callers/stage.sql', merge: ['pipelines/assistant-callers/merge.sql'], atomicWindows: true },
  tables: ['assistant_callers_daily'],
  lake: [{ name: 'assistant_callers_daily', select: 'lake/assistant-callers-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day'] }],
  priority: 5,
  rereads: DAILY_REREADS,
  defaultHistoryDays: 30,
} as const satisfies PipelineDefinition;
