// The read surface's own state, stored INSIDE the published catalog (docs_etl.read_surface), so
// the catalog and the list of files it names are replaced in one rename and never disagree:
// per segment (a table's day or month of one project) its signature and file, the day signatures
// and watermarks they were built from, the partitioned tables as declared then, and the files
// retired by earlier publishes with when (kept for the grace period, for readers still holding an
// older catalog). Paths are relative to the read surface's parts folder.
import { z } from 'zod';
import type { PartitionEntry } from './segment-signatures.js';
import type { SurfaceTable } from './surface-tables.js';

export const SURFACE_MANIFEST_VERSION = 2;

const segmentKey = z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/);

const segmentEntry = z.object({
  table: z.string(),
  projectId: z.string(),
  /** The segment key: a UTC day (YYYY-MM-DD) or a closed month (YYYY-MM). */
  date: segmentKey,
  signature: z.string(),
  rows: z.number().int().nonnegative(),
  files: z.record(z.string(), z.string()),
  bytes: z.record(z.string(), z.number().int()).optional(),
  exportedAt: z.string(),
});

const daySignature = z.object({
  table: z.string(), projectId: z.string(), date: z.string(), signature: z.string(), rows: z.number().int().nonnegative(),
});

const surfaceTable = z.object({
  name: z.string(), timeColumn: z.string(), timeType: z.enum(['instant', 'date']),
  stamp: z.string().optional(), stampedBy: z.string().optional(), versions: z.array(z.string()).readonly().optional(),
});

const retired = z.array(z.object({ file: z.string(), retiredAt: z.string() }));
/** The whole tables' files and signatures (src/sync/publish/surface-native.ts); absent in a catalog of an older docs-etl. */
const wholeTables = z.array(z.object({
  table: z.string(), signature: z.string(), rows: z.number().int().nonnegative(), file: z.string().nullable(), bytes: z.number().int().nonnegative(),
})).optional();

const manifestSchema = z.object({
  version: z.literal(SURFACE_MANIFEST_VERSION),
  /** The day signatures the segments were built from, the largest stamp per stamped table then, the migrations applied (src/sync/publish/surface-days.ts). */
  days: z.array(daySignature),
  watermarks: z.record(z.string(), z.string().nullable()),
  migrations: z.number().int(),
  fullDay: z.string().nullable(),
  /** The partitioned tables as declared at that publish (a publish given no declarations keeps them). */
  partitioned: z.array(surfaceTable),
  segments: z.array(segmentEntry),
  retired,
  tables: wholeTables,
  /** What the catalog was built for (src/sync/publish/catalog-update.ts); absent: written by an older docs-etl. */
  catalogKey: z.string().optional(),
});

/**
 * Version 1 (conversations and sources named in code): its files are carried as segments with a
 * signature no day has, so the first publish of this version writes every segment anew and
 * retires the old files for the grace period, as any changed segment.
 */
const manifestV1 = z.object({
  version: z.literal(1),
  segments: z.array(z.object({
    projectId: z.string(), date: segmentKey, exportedAt: z.string(),
    files: z.object({ conversations: z.string().optional(), sources: z.string().optional() }),
  })),
  retired,
  tables: wholeTables,
});

export type SurfaceManifest = z.infer<typeof manifestSchema> & { segments: PartitionEntry[]; partitioned: SurfaceTable[] };

export const emptyManifest = (): SurfaceManifest => ({
  version: SURFACE_MANIFEST_VERSION, days: [], watermarks: {}, migrations: 0, fullDay: null, partitioned: [], segments: [], retired: [],
});

/** Parses a stored manifest; anything unreadable is treated as none (everything is written again). */
export function parseManifest(text: string | null): SurfaceManifest | null {
  if (text === null) return null;
  try {
    const json: unknown = JSON.parse(text);
    const r = manifestSchema.safeParse(json);
    if (r.success) return r.data;
    const v1 = manifestV1.safeParse(json);
    return v1.success ? fromV1(v1.data) : null;
  } catch {
    return null;
  }
}

function fromV1(m: z.infer<typeof manifestV1>): SurfaceManifest {
  const segments = m.segments.flatMap((s) => Object.entries(s.files).flatMap(([table, file]) => (file === undefined ? [] : [{
    table, projectId: s.projectId, date: s.date, signature: 'v1', rows: 1, files: { [table]: file }, exportedAt: s.exportedAt,
  }])));
  return { ...emptyManifest(), segments, retired: m.retired, ...(m.tables && { tables: m.tables }) };
}

/** Every file a manifest names: current and retired. */
export function filesOf(m: SurfaceManifest): { current: string[]; retired: string[] } {
  return {
    current: [
      ...m.segments.flatMap((s) => Object.values(s.files)),
      ...(m.tables ?? []).flatMap((t) => (t.file === null ? [] : [t.file])),
    ],
    retired: m.retired.map((r) => r.file),
  };
}
