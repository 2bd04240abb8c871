// The Avro records of a manifest's data_file and of a manifest list's partition summaries, from the
// lake manifest's file entries and their stored column metrics (file-stats.ts), keyed by field id.
import type { FileEntry } from '../manifest.js';
import { partitionTuple, partitionValueBytes } from './partition-spec.js';
import type { TableDesign } from './metadata-builder.js';
import type { PartitionSpec } from './table-metadata.js';
import type { DataFileRecord, ManifestEntry } from './table-state.js';

type KV<V> = { key: number; value: V }[] | null;

export function dataFileRecord(design: TableDesign, e: FileEntry, uri: string): DataFileRecord {
  const ids = new Map(design.schema.fields.map((f) => [f.name, f.id]));
  const s = e.iceberg;
  const map = <V>(o: Record<string, unknown> | undefined, f: (v: unknown) => V): KV<V> => {
    if (!o) return null;
    const out = Object.entries(o).filter(([k]) => ids.has(k)).map(([k, v]) => ({ key: ids.get(k)!, value: f(v) }));
    return out.length ? out : null;
  };
  return {
    content: 0,
    file_path: uri,
    file_format: 'PARQUET',
    partition: partitionTuple(design.spec, e.partition),
    record_count: e.rows,
    file_size_in_bytes: e.bytes,
    column_sizes: map(s?.sizes, Number),
    value_counts: map(s?.counts, (v) => (v as [number, number])[0]),
    null_value_counts: map(s?.counts, (v) => (v as [number, number])[1]),
    lower_bounds: map(s?.lower, (v) => Buffer.from(String(v), 'base64')),
    upper_bounds: map(s?.upper, (v) => Buffer.from(String(v), 'base64')),
    sort_order_id: design.sortOrderId || null,
  };
}

/** Per partition field: whether any live file has a null value, and the lowest and highest values. */
export function partitionSummaries(spec: PartitionSpec, live: readonly ManifestEntry[]) {
  return spec.fields.map((f) => {
    const values = live.map((e) => e.data_file.partition[f.name]).filter((v): v is string | number => v !== null && v !== undefined);
    // Strings compare as UTF-8 bytes (the spec's order), days as numbers.
    const sorted = [...values].sort((x, y) => (typeof x === 'string' ? Buffer.compare(Buffer.from(x), Buffer.from(String(y))) : x - Number(y)));
    return {
      contains_null: values.length < live.length,
      contains_nan: false,
      lower_bound: sorted.length ? partitionValueBytes(f, sorted[0]!) : null,
      upper_bound: sorted.length ? partitionValueBytes(f, sorted.at(-1)!) : null,
    };
  });
}
