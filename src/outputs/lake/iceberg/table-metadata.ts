// The parts of an Apache Iceberg v2 table-metadata file (format/spec.md, "Table Metadata"; the
// REST catalog's TableMetadata) that docs-etl writes. Field names are the spec's, verbatim.

export type IcebergPrimitive =
  | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'date' | 'timestamp' | 'timestamptz' | 'string' | 'binary' | 'uuid'
  | `decimal(${number}, ${number})`;

export interface ListType {
  type: 'list';
  'element-id': number;
  element: IcebergPrimitive;
  'element-required': boolean;
}

export type IcebergType = IcebergPrimitive | ListType;

export interface SchemaField {
  id: number;
  name: string;
  required: boolean;
  type: IcebergType;
}

export interface IcebergSchema {
  type: 'struct';
  'schema-id': number;
  fields: SchemaField[];
}

export interface PartitionField {
  name: string;
  transform: 'identity' | 'day';
  'source-id': number;
  'field-id': number;
}

export interface PartitionSpec {
  'spec-id': number;
  fields: PartitionField[];
}

export interface SortOrder {
  'order-id': number;
  fields: { transform: 'identity'; 'source-id': number; direction: 'asc' | 'desc'; 'null-order': 'nulls-first' | 'nulls-last' }[];
}

export interface Snapshot {
  'snapshot-id': number;
  'parent-snapshot-id'?: number;
  'sequence-number': number;
  'timestamp-ms': number;
  'manifest-list': string;
  summary: Record<string, string> & { operation: 'append' | 'overwrite' | 'delete' | 'replace' };
  'schema-id': number;
}

export interface TableMetadata {
  'format-version': 2;
  'table-uuid': string;
  location: string;
  'last-sequence-number': number;
  'last-updated-ms': number;
  'last-column-id': number;
  schemas: IcebergSchema[];
  'current-schema-id': number;
  'partition-specs': PartitionSpec[];
  'default-spec-id': number;
  'last-partition-id': number;
  properties: Record<string, string>;
  'current-snapshot-id'?: number;
  snapshots: Snapshot[];
  'snapshot-log': { 'timestamp-ms': number; 'snapshot-id': number }[];
  'metadata-log': { 'timestamp-ms': number; 'metadata-file': string }[];
  'sort-orders': SortOrder[];
  'default-sort-order-id': number;
  refs: Record<string, { 'snapshot-id': number; type: 'branch' | 'tag' }>;
}

export const currentSchema = (m: TableMetadata): IcebergSchema => {
  const s = m.schemas.find((x) => x['schema-id'] === m['current-schema-id']);
  if (!s) throw new Error(`iceberg metadata: current schema ${m['current-schema-id']} missing`);
  return s;
};

