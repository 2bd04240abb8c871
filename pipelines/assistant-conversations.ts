// Assistant conversation history: one record per turn; turns of a conversation share `id` and
// differ by `timestamp`, so the key is (project_id, id, occurred_at).
import { conversationTurnSchema } from '../src/contracts/analytics.js';
import { definePipeline } from '../src/sync/pipeline/definition.js';

export const assistantConversations = definePipeline({
  name: 'assistant_conversations',
  endpoint: '/v1/analytics/{projectId}/assistant',
  paging: { style: 'cursor', limit: 1000, hasMore: true },
  recordsField: 'conversations',
  record: conversationTurnSchema,
  key: ['project_id', 'id', 'occurred_at'],
  time: { field: 'timestamp', column: 'occurred_at', granularity: 'event' },
  load: {
    stage: 'pipelines/assistant-conversations/stage.sql',
    merge: ['pipelines/assistant-conversations/merge.sql'],
  },
  tables: ['conversations', 'sources'],
  lake: [
    { name: 'conversations', select: 'lake/conversations.sql', layout: { by: 'project-day', column: 'occurred_at', type: 'instant' }, order: ['occurred_at', 'id'], changes: { stamp: 'last_seen_at', versions: ['updated_at', 'last_seen_at'] } },
    { name: 'sources', select: 'lake/sources.sql', layout: { by: 'project-day', column: 'occurred_at', type: 'instant' }, order: ['occurred_at', 'conversation_id', 'position'], changes: { stampedBy: 'conversations' } },
  ],
  priority: 0,
  label: 'assistant turns',
  reportCoverage: true,
});
