// The Iceberg partition spec of a lake table, matching its Hive layout (lake-layout.ts):
//   'project-day' on an instant:  identity(project_id), day(<column>) named `date` (the UTC day)
//   'project-day' on a DATE:      identity(project_id), identity(<column>) named `date`
//   'project':                    identity(project_id)
//   'none':                       unpartitioned
// Partition field ids start at 1000 and are reused for an equivalent field (spec: "Partition field
// IDs must be reused if an existing partition spec contains an equivalent field").
import { FatalError } from '../../../core/errors.js';
import type { LakeTable } from '../../../sync/pipeline/lake-table.js';
import type { FileEntry } from '../manifest.js';
import type { IcebergSchema, PartitionField, PartitionSpec, TableMetadata } from './table-metadata.js';

type Wanted = Omit<PartitionField, 'field-id'>;

function wantedFields(t: LakeTable, schema: IcebergSchema): Wanted[] {
  const idOf = (name: string): number => {
    const f = schema.fields.find((x) => x.name === name);
    if (!f || typeof f.type !== 'string') throw new FatalError(`lake table ${t.name}: partition column ${name} is not a primitive column of its SELECT`);
    return f.id;
  };
  const l = t.layout;
  if (l.by === 'none') return [];
  const fields: Wanted[] = [{ name: 'project_id', transform: 'identity', 'source-id': idOf('project_id') }];
  if (l.by === 'project-day') {
    if (schema.fields.some((f) => f.name === 'date')) throw new FatalError(`lake table ${t.name}: a column named "date" clashes with the partition field date`);
    fields.push({ name: 'date', transform: l.type === 'instant' ? 'day' : 'identity', 'source-id': idOf(l.column) });
  }
  return fields;
}

const same = (a: Wanted, b: Wanted) => a.name === b.name && a.transform === b.transform && a['source-id'] === b['source-id'];

/** The table's spec (an existing equivalent one, else a new spec id) and its new last-partition-id. */
export function resolveSpec(t: LakeTable, schema: IcebergSchema, prev: TableMetadata | null): { spec: PartitionSpec; lastPartitionId: number; specs: PartitionSpec[] } {
  const wanted = wantedFields(t, schema);
  const specs = prev?.['partition-specs'] ?? [];
  let last = prev?.['last-partition-id'] ?? 999;
  const existing = specs.find((s) => s.fields.length === wanted.length && s.fields.every((f, i) => same(f, wanted[i]!)));
  if (existing) return { spec: existing, lastPartitionId: last, specs };
  const known = specs.flatMap((s) => s.fields);
  const fields = wanted.map((w) => ({ ...w, 'field-id': known.find((k) => same(k, w))?.['field-id'] ?? ++last }));
  const spec = { 'spec-id': specs.length ? Math.max(...specs.map((s) => s['spec-id'])) + 1 : 0, fields };
  return { spec, lastPartitionId: last, specs: [...specs, spec] };
}

/** Days from 1970-01-01 of a YYYY-MM-DD day (the Iceberg value of a date and of day()). */
export const epochDay = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

/** A file's partition tuple, by partition field name, as Avro values. */
export function partitionTuple(spec: PartitionSpec, p: FileEntry['partition']): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const f of spec.fields) out[f.name] = f.name === 'date' ? (p.date ? epochDay(p.date) : null) : (p.project_id ?? null);
  return out;
}

/** A partition value in the spec's single-value binary form (partition summaries' bounds). */
export function partitionValueBytes(field: PartitionField, v: string | number): Buffer {
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  const b = Buffer.alloc(4);
  b.writeInt32LE(v);
  return b;
}
