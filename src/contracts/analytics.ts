// The Analytics Export API shapes (see docs/api/contract.md). These schemas are the single
// definition of each shape: the client validates with them and the sandbox serves them.
import { z } from 'zod';
import { calendarValid } from '../core/dates.js';

/**
 * ISO 8601 instant as the API sends it. The contract gives no format, so we accept a date-time
 * with seconds and an optional offset (`Z`, `+02:00`, `+0200`, `-03`); a missing offset means UTC.
 * This is exactly the set DuckDB's TIMESTAMPTZ cast reads, so a record that passes here always
 * loads. Anything else is not a timestamp we can key a turn on: quarantined rather than guessed.
 */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}(:?\d{2})?)?$/;

export const timestampSchema = z
  .string()
  .regex(ISO_TIMESTAMP, 'timestamp is not an ISO 8601 date-time')
  .refine((s) => calendarValid(s) && !Number.isNaN(Date.parse(normalizeOffset(s))), 'timestamp is not a date that exists (day, hour, minute or second out of range)');

/** `+0530` → `+05:30` and a missing offset → `Z`, so Date.parse reads every accepted form. */
export function normalizeOffset(s: string): string {
  const withT = s.replace(' ', 'T');
  if (withT.endsWith('Z')) return withT;
  const m = /([+-]\d{2})(:?)(\d{2})?$/.exec(withT.slice(19));
  if (m) return withT.slice(0, 19 + m.index) + `${m[1]}:${m[3] ?? '00'}`;
  return `${withT}Z`;
}

export const sourceSchema = z.object({ title: z.string(), url: z.string() });

export const responseTypeSchema = z.enum(['answer', 'clarifying_question']);
export const resolutionStatusSchema = z.enum(['answered', 'unanswered']);

/** One row is one turn; turns of a conversation share `id` and differ by `timestamp`. */
export const conversationTurnSchema = z.looseObject({
  id: z.string().min(1),
  timestamp: timestampSchema,
  query: z.string(),
  response: z.string(),
  responseType: responseTypeSchema.optional().default('answer'),
  sources: z.array(sourceSchema),
  resolutionStatus: resolutionStatusSchema,
  queryCategory: z.string().nullable(),
  pageUrl: z.string().nullable(),
});

/** The list response. Records are validated one by one (an invalid turn is quarantined, not fatal). */
export const conversationsPageSchema = z.object({
  conversations: z.array(z.unknown()),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});

export const analyticsErrorSchema = z.object({
  error: z.string(),
  details: z.array(z.object({ message: z.string() })).optional(),
});

/** Query parameters of GET /v1/analytics/{projectId}/assistant. */
export const DATE_PARAM = /^\d{4}-\d{2}-\d{2}$/;
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export type ConversationTurn = z.infer<typeof conversationTurnSchema>;
export type ConversationTurnInput = z.input<typeof conversationTurnSchema>;
