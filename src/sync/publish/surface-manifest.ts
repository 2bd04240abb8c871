// The read surface's own state, stored INSIDE the published catalog (docs_etl.read_surface), so
// the catalog and the list of files it names are replaced in one rename and never disagree:
// per segment its signature and files (the lake manifest's partition entry, keyed by a day or a
// month), and the files retired by earlier publishes with when (kept for the grace period, for
// readers still holding an older catalog). Paths are relative to the read surface's parts folder.
import { z } from 'zod';
import type { PartitionEntry } from './segment-signatures.js';

export const SURFACE_MANIFEST_VERSION = 1;

const segmentEntry = z.object({
  projectId: z.string(),
  /** The segment key: a UTC day (YYYY-MM-DD) or a closed month (YYYY-MM). */
  date: z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/),
  signature: z.string(),
  rows: z.number().int().nonnegative(),
  sourceRows: z.number().int().nonnegative(),
  maxUpdatedAt: z.string().nullable(),
  files: z.object({ conversations: z.string().optional(), sources: z.string().optional() }),
  bytes: z.object({ conversations: z.number().int().optional(), sources: z.number().int().optional() }).optional(),
  exportedAt: z.string(),
});

const daySignature = z.object({
  projectId: z.string(), date: z.string(), signature: z.string(), rows: z.number().int().nonnegative(),
  sourceRows: z.number().int().nonnegative(), maxUpdatedAt: z.string().nullable(),
});

const manifestSchema = z.object({
  version: z.literal(SURFACE_MANIFEST_VERSION),
  /** The day signatures the segments were built from, the largest last_seen_at then, the migrations applied (src/sync/publish/surface-days.ts). */
  days: z.array(daySignature),
  watermark: z.string().nullable(),
  migrations: z.number().int(),
  fullDay: z.string().nullable(),
  segments: z.array(segmentEntry),
  retired: z.array(z.object({ file: z.string(), retiredAt: z.string() })),
  /** The whole tables' files and signatures (src/sync/publish/surface-native.ts); absent in a catalog of an older docs-etl. */
  tables: z.array(z.object({
    table: z.string(), signature: z.string(), rows: z.number().int().nonnegative(), file: z.string().nullable(), bytes: z.number().int().nonnegative(),
  })).optional(),
  /** What the catalog was built for (src/sync/publish/catalog-update.ts); absent: written by an older docs-etl. */
  catalogKey: z.string().optional(),
});

export type SurfaceManifest = z.infer<typeof manifestSchema> & { segments: PartitionEntry[] };

export const emptyManifest = (): SurfaceManifest => ({ version: SURFACE_MANIFEST_VERSION, days: [], watermark: null, migrations: 0, fullDay: null, segments: [], retired: [] });

/** Parses a stored manifest; anything unreadable is treated as none (everything is written again). */
export function parseManifest(text: string | null): SurfaceManifest | null {
  if (text === null) return null;
  try {
    const r = manifestSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Every file a manifest names: current and retired. */
export function filesOf(m: SurfaceManifest): { current: string[]; retired: string[] } {
  return {
    current: [
      ...m.segments.flatMap((s) => Object.values(s.files).filter((f): f is string => f !== undefined)),
      ...(m.tables ?? []).flatMap((t) => (t.file === null ? [] : [t.file])),
    ],
    retired: m.retired.map((r) => r.file),
  };
}
