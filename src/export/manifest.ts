// The lake's own state, kept inside the lake (DIR/_docs_etl/manifest.json) so the lake can be moved
// or live anywhere: per partition its content signature and files, per small table the same.
// It is written last in a run (and at checkpoints during long runs), always through temp + rename,
// so it only ever names files that were completely written. A missing or unreadable manifest
// simply makes the next export rewrite everything.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../core/logger.js';
import { messageOf } from '../core/errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { MANIFEST_FILE, META_DIR, SMALL_TABLES } from './lake-layout.js';

export const MANIFEST_VERSION = 1;

const partitionEntry = z.object({
  projectId: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Opaque: compared for equality only (see sql/export/partition-signatures.sql). */
  signature: z.string(),
  rows: z.number().int().nonnegative(),
  sourceRows: z.number().int().nonnegative(),
  maxUpdatedAt: z.string().nullable(),
  /** Lake-relative paths of the partition's files, per table; a table with no rows has none. */
  files: z.object({ conversations: z.string().optional(), sources: z.string().optional() }),
  /** Each file's size when it was written: a file of another size on disk was damaged or replaced. */
  bytes: z.object({ conversations: z.number().int().optional(), sources: z.number().int().optional() }).optional(),
  exportedAt: z.string(),
});

const tableEntry = z.object({
  signature: z.string(),
  rows: z.number().int().nonnegative(),
  file: z.string(),
  bytes: z.number().int().optional(),
  exportedAt: z.string(),
});

const manifestSchema = z.object({
  version: z.literal(MANIFEST_VERSION),
  generator: z.string(),
  /** Fingerprint of the export SQL: when the file layout or columns change, everything is rewritten. */
  format: z.string(),
  updatedAt: z.string(),
  partitions: z.array(partitionEntry),
  tables: z.partialRecord(z.enum(SMALL_TABLES), tableEntry),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type PartitionEntry = z.infer<typeof partitionEntry>;
export type TableEntry = z.infer<typeof tableEntry>;

export const metaDir = (outDir: string): string => join(outDir, META_DIR);
export const manifestPath = (outDir: string): string => join(metaDir(outDir), MANIFEST_FILE);

export function emptyManifest(format: string, now: Date): Manifest {
  return { version: MANIFEST_VERSION, generator: 'docs-etl', format, updatedAt: now.toISOString(), partitions: [], tables: {} };
}

/** The lake's manifest, or null when there is none or it cannot be trusted (then everything is rewritten). */
export function readManifest(outDir: string, logger: Logger): Manifest | null {
  const path = manifestPath(outDir);
  if (!existsSync(path)) return null;
  try {
    return manifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    logger.warn({ path, err: messageOf(err).slice(0, 500) }, 'lake manifest unreadable; rewriting every partition');
    return null;
  }
}

export function writeManifest(outDir: string, manifest: Manifest, token: string): void {
  mkdirSync(metaDir(outDir), { recursive: true });
  const sorted: Manifest = {
    ...manifest,
    partitions: [...manifest.partitions].sort((a, b) =>
      a.projectId === b.projectId ? a.date.localeCompare(b.date) : a.projectId < b.projectId ? -1 : 1),
  };
  writeFileAtomic(manifestPath(outDir), `${JSON.stringify(sorted, null, 1)}\n`, token);
}
