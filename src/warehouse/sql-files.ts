// SQL lives in sql/ as .sql files; this reads them (once per process) by relative name.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SQL_DIR } from '../core/paths.js';

const cache = new Map<string, string>();

export function sqlFile(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(SQL_DIR, name), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** Files of a sql/ folder in name order (migrations are numbered, views are independent). */
export function sqlFolder(folder: string): { name: string; sql: string }[] {
  return readdirSync(join(SQL_DIR, folder))
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ name: f, sql: sqlFile(join(folder, f)) }));
}
