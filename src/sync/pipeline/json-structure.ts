// The DuckDB type a zod record contract reads as: the one field list. The loader reads landed
// records with DuckDB's JSON reader using this structure, so a field added to the contract is
// read without editing SQL, and a field the SQL maps but the contract lacks fails a test.
import { quotedIdentifier } from '../../core/sql-quoting.js';
import type { ZodType } from 'zod';

interface Def {
  type: string;
  innerType?: ZodType;
  element?: ZodType;
  shape?: Record<string, ZodType>;
  options?: ZodType[];
  in?: ZodType;
}

const def = (s: ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** DuckDB type of a zod schema: objects become STRUCTs, arrays LISTs, scalars VARCHAR/DOUBLE/BOOLEAN. */
export function duckdbType(schema: ZodType): string {
  const d = def(schema);
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return duckdbType(d.innerType!);
    case 'pipe':
      return duckdbType(d.in!);
    case 'object':
      return `STRUCT(${Object.entries(d.shape!).map(([k, v]) => `${quotedIdentifier(k)} ${duckdbType(v)}`).join(', ')})`;
    case 'array':
      return `${duckdbType(d.element!)}[]`;
    case 'string':
    case 'enum':
    case 'literal':
      // Timestamps stay text here: the stage SQL casts them, so DuckDB's own date check decides.
      return 'VARCHAR';
    case 'number':
      return 'DOUBLE';
    case 'int':
      return 'BIGINT';
    case 'boolean':
      return 'BOOLEAN';
    case 'union': {
      const types = [...new Set(d.options!.filter((o) => def(o).type !== 'null').map(duckdbType))];
      return types.length === 1 ? types[0]! : 'JSON';
    }
    default:
      return 'JSON';
  }
}

/** Field names a record contract names (anything else a record carries is `extra`). */
export function fieldsOf(schema: ZodType): string[] {
  const d = def(schema);
  if (d.type === 'object') return Object.keys(d.shape!);
  if (d.innerType) return fieldsOf(d.innerType);
  throw new Error(`a record contract must be a zod object, got ${d.type}`);
}

