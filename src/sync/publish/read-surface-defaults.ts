// The read surface's settings and defaults, apart from the publish itself: config reads them to
// check and fill a config file without loading the publish (DuckDB, the Parquet writer).
export const READ_SURFACES = ['catalog', 'copy'] as const;
export type ReadSurface = (typeof READ_SURFACES)[number];
export const DEFAULT_READ_SURFACE: ReadSurface = 'catalog';
/** How long a file a newer catalog no longer names is kept for readers holding an older one. */
export const DEFAULT_READ_GRACE_MS = 24 * 3_600_000;
