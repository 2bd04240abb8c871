// The Static Export API shapes (see docs/api/contract.md, part b).
import { z } from 'zod';

export const jobStatusSchema = z.enum(['queued', 'running', 'completed', 'failed']);

export const staticExportJobSchema = z.looseObject({
  jobId: z.string().min(1),
  status: jobStatusSchema,
  progress: z.number().min(0).max(100),
  pageCount: z.number().int().min(0),
  createdAt: z.string(),
  updatedAt: z.string(),
  error: z.string().nullable().optional(),
});

export const bundleResponseSchema = z.looseObject({
  jobId: z.string(),
  bundleUrl: z.url(),
  sizeBytes: z.number().int().min(0),
  expiresAt: z.string(),
});

/** Hostname only: no protocol, no trailing slash, no path prefix (contract). */
export const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i;
/** Page paths: no leading slash, no extension. */
export const PAGE_PATH = /^(?!\/)[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

export const startJobRequestSchema = z.object({
  domain: z.string().regex(HOSTNAME, 'domain must be a hostname without protocol, slash or path'),
  version: z.string().min(1).optional(),
  paths: z.array(z.string().regex(PAGE_PATH, 'paths entries are page paths without a leading slash')).optional(),
});

export const staticExportErrorSchema = z.object({ error: z.string().optional() });

export type StaticExportJob = z.infer<typeof staticExportJobSchema>;
export type BundleResponse = z.infer<typeof bundleResponseSchema>;
export type StartJobRequest = z.infer<typeof startJobRequestSchema>;
