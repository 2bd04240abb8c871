// `lake ddl` prints the schema and table names bare where an engine's rules want them so
// (Snowflake: unquoted names fold to upper case, the name users type; BigQuery inside one backquoted
// path; Athena as a shell word). Only plain names may reach that text: every declared lake table is
// one, and a name that would end a statement, a quote or a shell word is refused, for every engine.
import { describe, expect, it } from 'vitest';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { ddl, ENGINES, type TableRef } from '../../src/outputs/lake/iceberg/lake-ddl.js';

const ref = (table: string): TableRef => ({
  table, location: `s3://bucket/lake/${table}`, metadataFile: `s3://bucket/lake/${table}/metadata/v2.metadata.json`,
});

describe('lake ddl names', () => {
  it('every declared lake table prints for every engine; Snowflake names stay unquoted (upper-case folding)', () => {
    const refs = LAKE_TABLES.map((t) => ref(t.name));
    for (const engine of ENGINES) expect(() => ddl(engine, refs, 'docs')).not.toThrow();
    expect(ddl('snowflake', [ref('conversations')], 'docs')).toContain('CREATE ICEBERG TABLE IF NOT EXISTS docs.conversations ');
  });

  const HOSTILE = ['x; DROP SCHEMA docs', 'a`b', "o'brien", 'a b', 'docs.x', '"q"', '$(id)', ''];
  it.each(ENGINES)('%s: a schema or table name that is not a plain name is refused, not printed', (engine) => {
    for (const name of HOSTILE) {
      expect(() => ddl(engine, [ref('conversations')], name), name).toThrow(/not a plain name/);
      expect(() => ddl(engine, [ref(name)], 'docs'), name).toThrow(/not a plain name/);
    }
  });
});
