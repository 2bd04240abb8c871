// Feedback endpoints of the Analytics Export API (docs/api/analytics.openapi.json: FeedbackResponse,
// FeedbackGroupedByPageResponse; docs/api/contract.md §1, §2).
import { z } from 'zod';
import { timestampSchema } from './analytics.js';

export const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;

/**
 * One feedback entry: the schema's three variants (anyOf) as one object. Every variant has the base
 * fields; `contextual` adds `helpful` and `contact`, `code_snippet` adds `code`, `filename`, `lang`.
 * `createdAt` may be null (the API gives no time for some entries).
 */
export const feedbackRecordSchema = z.looseObject({
  id: z.string().min(1),
  path: z.string(),
  comment: z.string().nullable(),
  createdAt: timestampSchema.nullable(),
  source: z.enum(FEEDBACK_SOURCES),
  status: z.enum(FEEDBACK_STATUSES),
  helpful: z.boolean().optional(),
  contact: z.string().nullable().optional(),
  code: z.string().optional(),
  filename: z.string().nullable().optional(),
  lang: z.string().nullable().optional(),
}).superRefine((r, ctx) => {
  const need = (field: string, ok: boolean) => {
    if (!ok) ctx.addIssue({ code: 'custom', path: [field], message: `required for ${r.source} feedback` });
  };
  if (r.source === 'contextual') {
    need('helpful', typeof r.helpful === 'boolean');
    need('contact', r.contact !== undefined);
  }
  if (r.source === 'code_snippet') {
    need('code', typeof r.code === 'string');
    need('filename', r.filename !== undefined);
    need('lang', r.lang !== undefined);
  }
});

/** One path of `feedback/by-page`: counts over the requested range. */
export const feedbackByPageRecordSchema = z.looseObject({
  path: z.string(),
  thumbsUp: z.number().min(0),
  thumbsDown: z.number().min(0),
  code: z.number().min(0),
  total: z.number().min(0),
});
