// Per-file column metrics for the Iceberg manifests (so engines prune files): value and null
// counts and on-disk sizes of every top-level primitive column, lower/upper bounds of the
// numeric, boolean, date and time columns and of `project_id`. Read back from the Parquet file
// just written, before it is published, and kept in the lake manifest's file entry (so a later
// export that does not rewrite the file still has them). Bounds are the spec's single-value
// binary serialization (Appendix D), stored base64.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../../core/sql-quoting.js';
import { z } from 'zod';
import type { IcebergSchema, SchemaField } from './table-metadata.js';

export const icebergFileStats = z.object({
  /** column name → [value count (nulls included), null count] */
  counts: z.record(z.string(), z.tuple([z.number(), z.number()])),
  sizes: z.record(z.string(), z.number()),
  lower: z.record(z.string(), z.string()),
  upper: z.record(z.string(), z.string()),
});
export type IcebergFileStats = z.infer<typeof icebergFileStats>;

type BoundKind = 'int32' | 'int64' | 'bool' | 'utf8';

function boundKind(f: SchemaField): BoundKind | null {
  switch (f.type) {
    case 'int': case 'date': return 'int32';
    case 'long': case 'timestamp': case 'timestamptz': return 'int64';
    case 'boolean': return 'bool';
    case 'string': return f.name === 'project_id' ? 'utf8' : null;
    default: return null;
  }
}

/** The SQL expression giving a bound as a plain value (integers as BIGINT, text as VARCHAR). */
function boundExpr(agg: 'min' | 'max', f: SchemaField): string {
  const c = `${agg}(${quotedIdentifier(f.name)})`;
  if (f.type === 'timestamp' || f.type === 'timestamptz') return `epoch_us(${c})`;
  if (f.type === 'date') return `CAST(${c} - DATE '1970-01-01' AS BIGINT)`;
  if (f.type === 'boolean') return `CAST(${c} AS BIGINT)`;
  if (f.type === 'string') return c;
  return `CAST(${c} AS BIGINT)`;
}

export function boundBytes(kind: BoundKind, v: unknown): Buffer {
  if (kind === 'utf8') return Buffer.from(String(v), 'utf8');
  if (kind === 'bool') return Buffer.from([Number(v) ? 1 : 0]);
  const b = Buffer.alloc(kind === 'int32' ? 4 : 8);
  if (kind === 'int32') b.writeInt32LE(Number(v));
  else b.writeBigInt64LE(BigInt(v as bigint | number));
  return b;
}

export async function readFileStats(conn: DuckDBConnection, schema: IcebergSchema, file: string): Promise<IcebergFileStats> {
  const flat = schema.fields.filter((f) => typeof f.type === 'string');
  const bounded = flat.filter((f) => boundKind(f) !== null);
  const cols = [
    'count(*) AS n',
    ...flat.map((f, i) => `count(${quotedIdentifier(f.name)}) AS c${i}`),
    ...bounded.flatMap((f, i) => [`${boundExpr('min', f)} AS lo${i}`, `${boundExpr('max', f)} AS hi${i}`]),
  ];
  const row = (await conn.runAndReadAll(`SELECT ${cols.join(', ')} FROM read_parquet($file)`, { file })).getRowObjectsJS()[0]!;
  const n = Number(row.n);
  const stats: IcebergFileStats = { counts: {}, sizes: {}, lower: {}, upper: {} };
  flat.forEach((f, i) => { stats.counts[f.name] = [n, n - Number(row[`c${i}`])]; });
  bounded.forEach((f, i) => {
    const lo = row[`lo${i}`];
    const hi = row[`hi${i}`];
    if (lo === null || hi === null || lo === undefined || hi === undefined) return;
    stats.lower[f.name] = boundBytes(boundKind(f)!, lo).toString('base64');
    stats.upper[f.name] = boundBytes(boundKind(f)!, hi).toString('base64');
  });
  const sizes = (await conn.runAndReadAll(
    'SELECT path_in_schema AS p, sum(total_compressed_size) AS s FROM parquet_metadata($file) GROUP BY 1', { file },
  )).getRowObjectsJS();
  for (const s of sizes) if (flat.some((f) => f.name === s.p)) stats.sizes[String(s.p)] = Number(s.s);
  return stats;
}
