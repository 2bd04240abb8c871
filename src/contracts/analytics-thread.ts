// GET /v1/analytics/{projectId}/assistant/threads/{threadId} → AssistantThreadResponse (docs/api/
// contract.md §4): the transcript of one assistant conversation, its messages in order. The whole
// body is one record; a thread id is the conversation's `id` in the assistant export.
import { z } from 'zod';
import { timestampSchema } from './analytics.js';

export const threadMessageSchema = z.object({
  id: z.string().min(1),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: timestampSchema,
});

export const assistantThreadSchema = z.looseObject({
  threadId: z.string().min(1),
  createdAt: timestampSchema,
  messages: z.array(threadMessageSchema),
});

