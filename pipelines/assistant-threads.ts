// Assistant threads (GET /assistant/threads/{threadId}): the whole transcript of each conversation
// with an unanswered turn, read once per thread (a keyed pipeline: its keys come from
// keys.sql against the warehouse), at the lowest priority, budget permitting. Opt-in: run only
// when named (--pipelines assistant_threads, DOCS_PIPELINES, config `pipelines`).
import { assistantThreadSchema } from '../src/contracts/analytics-thread.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';

export const assistantThreads = definePipeline({
  name: 'assistant_threads',
  endpoint: '/v1/analytics/{projectId}/assistant/threads/{key}',
  paging: { style: 'single' },
  recordsField: null,
  record: assistantThreadSchema,
  key: ['project_id', 'thread_id', 'message_id'],
  // Its own rule, in stage.sql: a thread is read whole and replaces its stored messages, so of two
  // reads of a thread in a batch the latest wins as a whole (before its messages are unnested); a
  // per-message rule would keep a message the later read no longer has.
  tieBreak: { stage: 'the latest read of a thread wins whole, before its messages are unnested' },
  time: { field: 'createdAt', column: 'created_at', granularity: 'event' },
  keys: { sql: 'pipelines/assistant-threads/keys.sql' },
  optIn: true,
  load: {
    stage: 'pipelines/assistant-threads/stage.sql',
    merge: ['pipelines/assistant-threads/merge.sql'],
  },
  tables: ['thread_messages'],
  lake: [{ name: 'thread_messages', select: 'lake/thread-messages.sql', layout: { by: 'project-day', column: 'thread_created_at', type: 'instant' }, order: ['thread_created_at', 'thread_id', 'position', 'message_id'] }],
  priority: 9,
});
