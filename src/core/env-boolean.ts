// The one reading of a yes/no environment variable (DOCS_ETL_CATCH_UP, DOCS_ETL_S3_PATH_STYLE, …):
// every such variable accepts the same words, so "yes" never means on for one and an error for another.
import { UsageError } from './errors.js';

const ON = ['1', 'true', 'yes', 'on'];
const OFF = ['0', 'false', 'no', 'off'];

/** 1/true/yes/on or 0/false/no/off, any case; unset or blank: undefined; anything else is a usage error. */
export function booleanEnv(value: string | undefined, name: string): boolean | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return undefined;
  if (ON.includes(v)) return true;
  if (OFF.includes(v)) return false;
  throw new UsageError(`${name} must be 1 or 0 (true/false, yes/no, on/off), not "${value}"`);
}
