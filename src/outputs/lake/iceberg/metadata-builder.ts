// The next vN.metadata.json of a table (format/spec.md "Table Metadata", format-version 2): the
// previous one carried over (table-uuid, schemas, specs, snapshots, logs) with this export's schema,
// spec, sort order and snapshot. Every field the spec requires for v2 is written.
import { randomUUID } from 'node:crypto';
import type { LakeTable } from '../../../sync/pipeline/lake-table.js';
import type { IcebergSchema, PartitionSpec, Snapshot, SortOrder, TableMetadata } from './table-metadata.js';

/** A table's schema, partition spec and sort order for this export (table-schema.ts, partition-spec.ts). */
export interface TableDesign {
  schema: IcebergSchema;
  /** Every schema of the table, the current one included. */
  schemas: IcebergSchema[];
  lastColumnId: number;
  spec: PartitionSpec;
  specs: PartitionSpec[];
  lastPartitionId: number;
  sortOrderId: number;
  sortOrders: SortOrder[];
}

/** The rows' order in each file (the declaration's `order`, ascending, DuckDB's NULLS LAST) as a sort order. */
export function resolveSortOrder(t: LakeTable, schema: IcebergSchema, prev: TableMetadata | null): { sortOrderId: number; sortOrders: SortOrder[] } {
  const orders = prev?.['sort-orders'] ?? [{ 'order-id': 0, fields: [] }];
  const fields = t.order.map((name) => schema.fields.find((f) => f.name === name && typeof f.type === 'string'))
    .filter((f) => f !== undefined)
    .map((f) => ({ transform: 'identity' as const, 'source-id': f.id, direction: 'asc' as const, 'null-order': 'nulls-last' as const }));
  const found = orders.find((o) => JSON.stringify(o.fields) === JSON.stringify(fields));
  if (found) return { sortOrderId: found['order-id'], sortOrders: orders };
  const order = { 'order-id': Math.max(...orders.map((o) => o['order-id'])) + 1, fields };
  return { sortOrderId: order['order-id'], sortOrders: [...orders, order] };
}

export function buildMetadata(a: {
  table: LakeTable; location: string; prev: TableMetadata | null; design: TableDesign; snapshot: Snapshot | null;
  sequence: number; nowMs: number; previousFile: string | null;
}): TableMetadata {
  const { prev, design, snapshot, nowMs } = a;
  const snapshots = [...(prev?.snapshots ?? []), ...(snapshot ? [snapshot] : [])];
  const currentId = snapshot?.['snapshot-id'] ?? prev?.['current-snapshot-id'];
  return {
    'format-version': 2,
    'table-uuid': prev?.['table-uuid'] ?? randomUUID(),
    location: a.location,
    'last-sequence-number': a.sequence,
    'last-updated-ms': nowMs,
    'last-column-id': design.lastColumnId,
    schemas: design.schemas,
    'current-schema-id': design.schema['schema-id'],
    'partition-specs': design.specs,
    'default-spec-id': design.spec['spec-id'],
    'last-partition-id': design.lastPartitionId,
    properties: {
      ...prev?.properties,
      'write.format.default': 'parquet',
      'write.parquet.compression-codec': 'zstd',
      'docs-etl.layout': a.table.layout.by,
    },
    ...(currentId !== undefined ? { 'current-snapshot-id': currentId } : {}),
    snapshots,
    'snapshot-log': [...(prev?.['snapshot-log'] ?? []), ...(snapshot ? [{ 'timestamp-ms': snapshot['timestamp-ms'], 'snapshot-id': snapshot['snapshot-id'] }] : [])],
    'metadata-log': [...(prev?.['metadata-log'] ?? []), ...(a.previousFile && prev ? [{ 'timestamp-ms': prev['last-updated-ms'], 'metadata-file': a.previousFile }] : [])],
    'sort-orders': design.sortOrders,
    'default-sort-order-id': design.sortOrderId,
    refs: currentId !== undefined ? { main: { 'snapshot-id': currentId, type: 'branch' } } : {},
  };
}
