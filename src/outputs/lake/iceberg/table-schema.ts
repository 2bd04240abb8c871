// A lake table's Iceberg schema with stable field ids. The columns are those of the table's lake
// SELECT (DESCRIBE, DuckDB types); ids come from the table's current Iceberg schema: a column
// keeps its id while its name and type stay, a new (or retyped) column gets the next id after
// last-column-id, and an id is never given to another column. The map lives in the metadata itself.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../../core/sql-quoting.js';
import { FatalError } from '../../../core/errors.js';
import type { IcebergPrimitive, IcebergSchema, IcebergType, SchemaField, TableMetadata } from './table-metadata.js';
import { currentSchema } from './table-metadata.js';

export interface LakeColumn {
  name: string;
  /** DuckDB's column_type, e.g. 'TIMESTAMP WITH TIME ZONE', 'VARCHAR[]'. */
  duckType: string;
}

export async function describeSelect(conn: DuckDBConnection, select: string): Promise<LakeColumn[]> {
  const rows = (await conn.runAndReadAll(`DESCRIBE ${select}`)).getRowObjectsJS();
  return rows.map((r) => ({ name: String(r.column_name), duckType: String(r.column_type) }));
}

const PRIMITIVES: Record<string, IcebergPrimitive> = {
  VARCHAR: 'string', 'TIMESTAMP WITH TIME ZONE': 'timestamptz', TIMESTAMP: 'timestamp', DATE: 'date',
  INTEGER: 'int', SMALLINT: 'int', TINYINT: 'int', BIGINT: 'long', DOUBLE: 'double', FLOAT: 'float',
  BOOLEAN: 'boolean', BLOB: 'binary', UUID: 'uuid',
};

export function primitiveOf(duckType: string): IcebergPrimitive | null {
  const dec = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(duckType);
  if (dec) return `decimal(${Number(dec[1])}, ${Number(dec[2])})`;
  return PRIMITIVES[duckType] ?? null;
}

const sameType = (a: IcebergType, b: IcebergType): boolean =>
  typeof a === 'string' || typeof b === 'string' ? a === b : a.element === b.element;

/**
 * The schema for `columns`: the current one when nothing changed, else a new schema (next
 * schema-id) whose unchanged columns keep their ids. Returns the table's new last-column-id.
 */
export function resolveSchema(table: string, columns: readonly LakeColumn[], prev: TableMetadata | null): { schema: IcebergSchema; lastColumnId: number } {
  const before = prev ? currentSchema(prev) : null;
  const byName = new Map((before?.fields ?? []).map((f) => [f.name, f]));
  let last = prev?.['last-column-id'] ?? 0;
  const fields: SchemaField[] = columns.map((c) => {
    const list = /^(.*)\[\]$/.exec(c.duckType);
    const prim = primitiveOf(list ? list[1]! : c.duckType);
    if (!prim) throw new FatalError(`lake table ${table}: column ${c.name} has type ${c.duckType}, which has no Iceberg type here`);
    const old = byName.get(c.name);
    const wanted: IcebergType = list ? { type: 'list', 'element-id': 0, element: prim, 'element-required': false } : prim;
    if (old && sameType(old.type, wanted)) return old;
    const id = ++last;
    const type: IcebergType = typeof wanted === 'string' ? wanted : { ...wanted, 'element-id': ++last };
    return { id, name: c.name, required: false, type };
  });
  const same = before !== null && JSON.stringify(before.fields) === JSON.stringify(fields);
  if (same) return { schema: before, lastColumnId: last };
  const nextId = prev ? Math.max(...prev.schemas.map((s) => s['schema-id'])) + 1 : 0;
  return { schema: { type: 'struct', 'schema-id': nextId, fields }, lastColumnId: last };
}

/** DuckDB's COPY option that writes the Iceberg field ids into the Parquet schema. */
export function fieldIdsOption(schema: IcebergSchema): string {
  const parts = schema.fields.map((f) => {
    const v = typeof f.type === 'string' ? String(f.id) : `{__duckdb_field_id: ${f.id}, element: ${f.type['element-id']}}`;
    return `${quotedIdentifier(f.name)}: ${v}`;
  });
  return `FIELD_IDS {${parts.join(', ')}}`;
}
