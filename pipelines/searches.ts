// Searches per day (GET /searches): the API aggregates over the requested range and ranks terms by
// hits; each local day is one window, of which the top `maxPages` pages (100 terms each) are read
// (the rest is the long tail; the day's total searches counts every search). A day with more terms
// than read is marked truncated in searches_daily_totals.
import { searchRecordSchema, searchesPageSchema } from '../src/contracts/analytics-traffic.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';
import { DAILY_REREADS } from './daily.js';

export const searches = definePipeline({
  name: 'searches',
  endpoint: '/v1/analytics/{projectId}/searches',
  paging: { style: 'cursor', limit: 100, hasMore: false, maxPages: 1 },
  recordsField: 'searches',
  record: searchRecordSchema,
  page: searchesPageSchema,
  key: ['project_id', 'day', 'search_query'],
  // A term served twice in a day's answer keeps its first place: its rank is its position as served
  // (terms are ranked by hits), and a repeat further down is not a newer read of it.
  tieBreak: 'first',
  time: { field: null, column: 'window_from', granularity: 'day' },
  load: { stage: 'pipelines/searches/stage.sql', merge: { kind: 'replace-day', changed: ['hits'] } },
  tables: [
    {
      name: 'searches_daily', rows: 'record',
      columns: { search_query: 'VARCHAR', hits: 'BIGINT', ctr: 'DOUBLE', top_clicked_page: 'VARCHAR?', last_searched_at: 'TIMESTAMPTZ?', rank: 'INTEGER' },
    },
    {
      name: 'searches_daily_totals', rows: 'day',
      columns: { total_searches: 'BIGINT', terms_read: { type: 'INTEGER', value: 'window-rows' }, truncated: 'BOOLEAN' },
    },
  ],
  lake: [
    { name: 'searches_daily', select: 'lake/searches-daily.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day', 'rank', 'search_query'] },
    { name: 'searches_daily_totals', select: 'lake/searches-daily-totals.sql', layout: { by: 'project-day', column: 'day', type: 'date' }, order: ['day'] },
  ],
  priority: 4,
  reportCoverage: true,
  rereads: DAILY_REREADS,
});
