// Iceberg's Avro files (format/spec.md "Manifests", "Manifest Lists"), written with avsc from
// plain schema objects (so the `field-id` attributes reach the file's header) and UNCOMPRESSED
// (the null codec: every reader has it; icebird 0.3.1 cannot read deflate).
import { Readable } from 'node:stream';
import avro from 'avsc';
import type { PartitionSpec } from './table-metadata.js';

type AvroSchema = Record<string, unknown>;

const opt = (name: string, type: unknown, fieldId: number): AvroSchema => ({ name, type: ['null', type], default: null, 'field-id': fieldId });

/** An Iceberg map<int, V> in Avro: an array of key/value records with logicalType map. */
const intMap = (name: string, fieldId: number, keyId: number, valueId: number, value: 'long' | 'bytes'): AvroSchema => opt(name, {
  type: 'array', logicalType: 'map',
  items: { type: 'record', name: `k${keyId}_v${valueId}`, fields: [{ name: 'key', type: 'int', 'field-id': keyId }, { name: 'value', type: value, 'field-id': valueId }] },
}, fieldId);

export function manifestEntrySchema(spec: PartitionSpec): AvroSchema {
  const partition = spec.fields.map((f) => opt(f.name, f.name === 'date' ? { type: 'int', logicalType: 'date' } : 'string', f['field-id']));
  return {
    type: 'record', name: 'manifest_entry',
    fields: [
      { name: 'status', type: 'int', 'field-id': 0 },
      opt('snapshot_id', 'long', 1),
      opt('sequence_number', 'long', 3),
      opt('file_sequence_number', 'long', 4),
      {
        name: 'data_file', 'field-id': 2,
        type: {
          type: 'record', name: 'r2',
          fields: [
            { name: 'content', type: 'int', 'field-id': 134 },
            { name: 'file_path', type: 'string', 'field-id': 100 },
            { name: 'file_format', type: 'string', 'field-id': 101 },
            { name: 'partition', type: { type: 'record', name: 'r102', fields: partition }, 'field-id': 102 },
            { name: 'record_count', type: 'long', 'field-id': 103 },
            { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
            intMap('column_sizes', 108, 117, 118, 'long'),
            intMap('value_counts', 109, 119, 120, 'long'),
            intMap('null_value_counts', 110, 121, 122, 'long'),
            intMap('lower_bounds', 125, 126, 127, 'bytes'),
            intMap('upper_bounds', 128, 129, 130, 'bytes'),
            opt('sort_order_id', 'int', 140),
          ],
        },
      },
    ],
  };
}

export const MANIFEST_LIST_SCHEMA: AvroSchema = {
  type: 'record', name: 'manifest_file',
  fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
    opt('partitions', {
      type: 'array', 'element-id': 508,
      items: {
        type: 'record', name: 'r508',
        fields: [
          { name: 'contains_null', type: 'boolean', 'field-id': 509 },
          opt('contains_nan', 'boolean', 518),
          opt('lower_bound', 'bytes', 510),
          opt('upper_bound', 'bytes', 511),
        ],
      },
    }, 507),
  ],
};

/** An Avro object container file (null codec) of `records`, with string key-value metadata. */
export async function encodeAvro(schema: AvroSchema, records: readonly unknown[], meta: Record<string, string>): Promise<Buffer> {
  const metadata = Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, Buffer.from(v, 'utf8')]));
  const encoder = new avro.streams.BlockEncoder(schema as avro.Schema, { codec: 'null', metadata } as object);
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    encoder.on('data', (c: Buffer) => chunks.push(c));
    encoder.on('end', resolve);
    encoder.on('error', reject);
  });
  for (const r of records) encoder.write(r);
  encoder.end();
  await done;
  return Buffer.concat(chunks);
}

export async function decodeAvro<T>(bytes: Buffer): Promise<T[]> {
  const out: T[] = [];
  const decoder = new avro.streams.BlockDecoder();
  await new Promise<void>((resolve, reject) => {
    decoder.on('data', (r: T) => out.push(r));
    decoder.on('end', resolve);
    decoder.on('error', reject);
    Readable.from([bytes]).pipe(decoder);
  });
  return out;
}
