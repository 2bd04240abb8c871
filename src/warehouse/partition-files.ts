// How a partition file of the lake and of the read surface is named and checked: shared by
// outputs/lake (the export) and sync/publish (the read surface), so neither reads the other.
// Files in flight are named `.part-0.<token>.parquet.tmp`: the leading dot hides them from
// Hadoop-style listings (Spark, Trino, Hive) and the `.tmp` suffix keeps them out of `*.parquet` globs.

export function tempName(finalName: string, token: string): string {
  const dot = finalName.lastIndexOf('.');
  return `.${finalName.slice(0, dot)}.${token}${finalName.slice(dot)}.tmp`;
}

/** Characters Hive escapes in partition values (FileUtils.escapePathName); Spark, Trino and DuckDB decode them. */
// eslint-disable-next-line no-control-regex
const HIVE_ESCAPE_RE = /[\u0000-\u001f"#%'*/:=?\\\u007f{[\]^]/g;

export function escapeHiveValue(value: string): string {
  if (value === '') return '__HIVE_DEFAULT_PARTITION__';
  return value.replace(HIVE_ESCAPE_RE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function unescapeHiveValue(text: string): string {
  if (text === '__HIVE_DEFAULT_PARTITION__') return '';
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** A file the manifest names, against what is stored: missing, or of another size than it was written with. */
export function fileCheck(actual: number | undefined, expected: number): 'missing-file' | 'damaged-file' | null {
  if (actual === undefined) return 'missing-file';
  return actual !== expected ? 'damaged-file' : null;
}
