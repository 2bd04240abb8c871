// The lake's own state and commit point, kept inside the lake (_docs_etl/manifest.json) so the lake
// can be moved or live anywhere. A clean machine-readable list: per table its layout and format
// fingerprint; per file its table, partition (Hive names), key, rows, bytes and content signature.
// It is written after the data files (and at checkpoints), in one step, so it only names files that
// were completely written. It is NOT a commit point for readers (deprecated for them, docs/lake.md):
// the Iceberg commit follows it, and every export re-derives each table's snapshot from it, so after
// a kill between the two the next export makes them agree again (test/lake/iceberg-manifest-agree.test.ts).
// A missing, unreadable or older-version manifest makes the next export rewrite everything.
import { z } from 'zod';
import type { Logger } from '../../core/logger.js';
import { messageOf } from '../../core/errors.js';
import { icebergFileStats } from './iceberg/file-stats.js';
import { MANIFEST_KEY } from './lake-layout.js';
import type { LakeStorage } from './lake-storage.js';

export const MANIFEST_VERSION = 2;

const fileEntry = z.object({
  table: z.string(),
  /** Hive partition values of the file's directory (none for a table of one file). */
  partition: z.object({ project_id: z.string().optional(), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional() }),
  /** Lake-relative key ('/'-separated): a path under a local lake, an object key under the S3 prefix. */
  key: z.string(),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Opaque: compared for equality only (see sql/export/lake-signatures.sql). */
  signature: z.string(),
  exportedAt: z.string(),
  /** The file's column metrics for its Iceberg manifest entry (iceberg/file-stats.ts). */
  iceberg: icebergFileStats.optional(),
});

const tableEntry = z.object({
  layout: z.enum(['project-day', 'project', 'none']),
  /** Fingerprint of the table's SELECT, layout and order: a change rewrites the table's files. */
  format: z.string(),
});

const manifestSchema = z.object({
  version: z.literal(MANIFEST_VERSION),
  generator: z.string(),
  updatedAt: z.string(),
  tables: z.record(z.string(), tableEntry),
  files: z.array(fileEntry),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type FileEntry = z.infer<typeof fileEntry>;

export function emptyManifest(now: Date): Manifest {
  return { version: MANIFEST_VERSION, generator: 'docs-etl', updatedAt: now.toISOString(), tables: {}, files: [] };
}

/** The lake's manifest, or null when there is none or it cannot be trusted (then everything is rewritten). */
export async function readManifest(storage: LakeStorage, logger: Logger): Promise<Manifest | null> {
  const text = await storage.readText(MANIFEST_KEY);
  if (text === null) return null;
  try {
    const raw = JSON.parse(text) as { version?: unknown };
    if (raw.version !== MANIFEST_VERSION) {
      logger.info({ version: raw.version, now: MANIFEST_VERSION }, 'lake manifest of an earlier version; rewriting every file');
      return null;
    }
    return manifestSchema.parse(raw);
  } catch (err) {
    logger.warn({ location: storage.location, err: messageOf(err).slice(0, 500) }, 'lake manifest unreadable; rewriting every file');
    return null;
  }
}

export async function writeManifest(storage: LakeStorage, manifest: Manifest, token: string): Promise<void> {
  const sorted: Manifest = { ...manifest, files: [...manifest.files].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
  await storage.writeText(MANIFEST_KEY, `${JSON.stringify(sorted, null, 1)}\n`, token);
}
