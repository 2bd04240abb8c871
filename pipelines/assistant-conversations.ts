// Assistant conversation history: one record per turn, keyed by conversation id + turn timestamp.
import { conversationTurnSchema } from '../src/contracts/analytics.js';
import type { PipelineDefinition } from '../src/run/pipeline.js';

export const assistantConversations = {
  name: 'assistant_conversations',
  endpoint: '/v1/analytics/{projectId}/assistant',
  primaryKey: ['project_id', 'id', 'occurred_at'],
  cursorField: 'occurred_at',
  pageSize: 1000,
  record: conversationTurnSchema,
  tables: ['conversations', 'sources', 'quarantine'],
  defaultLookbackMs: 24 * 3_600_000,
} as const satisfies PipelineDefinition;
