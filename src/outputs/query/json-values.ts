// `query --format json` values: numbers as JSON numbers while a double holds them exactly (a
// BIGINT/HUGEINT/UBIGINT beyond 2^53, or a DECIMAL of more than 15 digits, stays a string so no
// digit is lost), TIMESTAMPTZ as ISO 8601 in UTC with Z, TIMESTAMP (no zone) as ISO 8601 without
// an offset, DATE as YYYY-MM-DD. Nested values (lists, structs, maps) follow the same rules.
import type { DuckDBValueConverter } from '@duckdb/node-api';
import { DuckDBDecimalValue, DuckDBTypeId, JsonDuckDBValueConverter } from '@duckdb/node-api';
import type { Json } from '@duckdb/node-api';

const INTEGERS = new Set<DuckDBTypeId>([DuckDBTypeId.BIGINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT]);
const MICROS_PER_MS = 1000n;

function exactInteger(value: unknown): Json {
  const big = BigInt(String(value));
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big.toString();
}

function exactDecimal(value: unknown): Json {
  if (!(value instanceof DuckDBDecimalValue)) return String(value);
  const digits = (value.value < 0n ? -value.value : value.value).toString().length;
  return digits <= 15 ? Number(value.toString()) : value.toString();
}

/** Microseconds since the epoch as ISO 8601 (`Z` when the instant is UTC); DuckDB's text if out of JS range (infinity). */
function isoFromMicros(micros: bigint, zoned: boolean): string | null {
  const ms = micros / MICROS_PER_MS - (micros % MICROS_PER_MS < 0n ? 1n : 0n);
  const date = new Date(Number(ms));
  if (Number.isNaN(date.getTime())) return null;
  const sub = ((micros % MICROS_PER_MS) + MICROS_PER_MS) % MICROS_PER_MS;
  const iso = date.toISOString().slice(0, -1) + (sub ? sub.toString().padStart(3, '0') : '');
  return zoned ? `${iso}Z` : iso;
}

function isoTimestamp(value: unknown, zoned: boolean): Json {
  const micros = (value as { micros?: bigint }).micros;
  return (typeof micros === 'bigint' ? isoFromMicros(micros, zoned) : null) ?? String(value);
}

export const queryJsonConverter: DuckDBValueConverter<Json> = (value, type, converter) => {
  if (value === null || value === undefined) return null;
  if (INTEGERS.has(type.typeId)) return exactInteger(value);
  if (type.typeId === DuckDBTypeId.DECIMAL) return exactDecimal(value);
  if (type.typeId === DuckDBTypeId.TIMESTAMP_TZ) return isoTimestamp(value, true);
  if (type.typeId === DuckDBTypeId.TIMESTAMP) return isoTimestamp(value, false);
  return JsonDuckDBValueConverter(value, type, converter);
};
