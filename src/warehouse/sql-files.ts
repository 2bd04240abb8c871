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

/**
 * One statement of several single-query SQL texts: each one's rows tagged `i` (its place in the
 * list), UNION ALL. A statement per query costs a round of planning and scheduling each, most of a
 * publish that changed nothing. Each text is a file's one query: whole-line `--` comments and the
 * final `;` are dropped so it can sit in a subquery.
 */
export function taggedUnion(queries: readonly string[]): string {
  const body = (q: string) => q.replace(/^--.*\n/gm, '').replace(/;\s*$/, '');
  return queries.map((q, i) => `SELECT ${i}::INTEGER AS i, * FROM (${body(q)})`).join('\nUNION ALL\n');
}
