// Splits a SQL text at its top-level semicolons, for checking statement by statement what DuckDB's
// parser cannot serialize whole (CALL, EXPLAIN, SET beside SELECTs). Quotes ('…' with '' and E'…'
// with backslash escapes, "…", $tag$…$tag$) and comments (--, nested /* */) are skipped. The
// caller compares the count with DuckDB's own (extract_statements) and refuses on a mismatch.

/** The non-empty statements of `sql`, in order, without their semicolons. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === ';') {
      out.push(sql.slice(start, i));
      start = ++i;
    } else {
      i = skipToken(sql, i);
    }
  }
  out.push(sql.slice(start));
  return out.filter((s) => stripLeadingComments(s).trim() !== '');
}

/** The statement without the comments and whitespace before its first word. */
export function stripLeadingComments(sql: string): string {
  let s = sql.trimStart();
  for (;;) {
    if (s.startsWith('--') || s.startsWith('/*')) s = s.slice(skipToken(s, 0)).trimStart();
    else return s;
  }
}

/** The index after the token at `i` (a quoted string, a comment, or one character). */
function skipToken(sql: string, i: number): number {
  const c = sql[i]!;
  const next = sql[i + 1];
  if (c === '-' && next === '-') {
    const end = sql.indexOf('\n', i);
    return end < 0 ? sql.length : end + 1;
  }
  if (c === '/' && next === '*') return skipBlockComment(sql, i);
  if (c === "'") return skipQuoted(sql, i, "'", /[eE]/.test(sql[i - 1] ?? '') && !/[\w$]/.test(sql[i - 2] ?? ''));
  if (c === '"') return skipQuoted(sql, i, '"', false);
  if (c === '$') {
    const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
    if (tag && !/[\w$]/.test(sql[i - 1] ?? '')) {
      const end = sql.indexOf(tag, i + tag.length);
      return end < 0 ? sql.length : end + tag.length;
    }
  }
  return i + 1;
}

function skipQuoted(sql: string, i: number, q: string, backslash: boolean): number {
  let j = i + 1;
  while (j < sql.length) {
    if (backslash && sql[j] === '\\') j += 2;
    else if (sql[j] === q && sql[j + 1] === q) j += 2;
    else if (sql[j] === q) return j + 1;
    else j++;
  }
  return sql.length;
}

function skipBlockComment(sql: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < sql.length) {
    if (sql[j] === '/' && sql[j + 1] === '*') {
      depth++;
      j += 2;
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      depth--;
      j += 2;
      if (depth === 0) return j;
    } else {
      j++;
    }
  }
  return sql.length;
}
