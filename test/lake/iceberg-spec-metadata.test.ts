// Every metadata file the lake writes (every table, every version, after two exports with a change
// between them) validates against the Iceberg spec itself: the TableMetadata definition of apache/
// iceberg's open-api/rest-catalog-open-api.yaml, vendored unchanged with every schema it references
// (test/fixtures/iceberg/rest-catalog-table-metadata.yaml), checked field by field: each object may
// carry only the fields its definition names (a typo'd or invented field fails), and the fields the
// spec's table (format/spec.md "Table Metadata Fields") marks required for v2 must all be present.
// The stricter hand-written checks on a full sync stay in iceberg-every-table.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { silentLogger } from '../../src/core/logger.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

/** format/spec.md, "Table Metadata Fields": the fields marked _required_ in the v2 column. */
const V2_REQUIRED = [
  'format-version', 'table-uuid', 'location', 'last-sequence-number', 'last-updated-ms', 'last-column-id', 'schemas',
  'current-schema-id', 'partition-specs', 'default-spec-id', 'last-partition-id', 'sort-orders', 'default-sort-order-id',
];

type JsonSchema = Record<string, unknown>;

/**
 * The vendored definitions, made closed: an object schema that names its properties and says
 * nothing of others admits no others (`unevaluatedProperties: false`). StructType and the parts of
 * an allOf are left open because Schema extends StructType through allOf; Schema is closed over both.
 */
function closedDefinitions(): JsonSchema {
  const doc = parse(readFileSync(new URL('../fixtures/iceberg/rest-catalog-table-metadata.yaml', import.meta.url), 'utf8')) as { components: { schemas: Record<string, JsonSchema> } };
  const close = (s: unknown): void => {
    if (s === null || typeof s !== 'object') return;
    const o = s as JsonSchema;
    if (o.properties && o.additionalProperties === undefined) o.unevaluatedProperties = false;
    for (const v of Object.values((o.properties ?? {}) as Record<string, unknown>)) close(v);
    for (const k of ['items', 'additionalProperties']) close(o[k]);
    // allOf parts are left open: the parent (Schema) is closed over all of them.
    for (const k of ['oneOf', 'anyOf']) for (const v of (o[k] as unknown[] | undefined) ?? []) close(v);
  };
  for (const [name, s] of Object.entries(doc.components.schemas)) if (name !== 'StructType') close(s);
  doc.components.schemas.Schema!.unevaluatedProperties = false;
  return { $id: 'iceberg-rest', ...doc };
}

let tmp: ReturnType<typeof tempDir>;
let lake: string;

beforeAll(async () => {
  tmp = tempDir('docs-etl-ice-spec-');
  lake = join(tmp.dir, 'lake');
  const clock = new FakeClock(Date.parse('2026-03-05T12:00:00Z'));
  const wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
  try {
    await fillWarehouse(wh.conn, { days: 3, turnsPerDay: 8 });
    await exportLake({ conn: wh.conn, logger: silentLogger, clock, tables: LAKE_TABLES }, { outDir: lake });
    await wh.conn.run(`UPDATE conversations SET query = 'changed' WHERE project_id = 'acme' AND id = 'conv-1-2'`);
    await wh.conn.run(`DELETE FROM sources WHERE project_id = 'beta'`);
    clock.advance(3_600_000);
    await exportLake({ conn: wh.conn, logger: silentLogger, clock, tables: LAKE_TABLES }, { outDir: lake });
  } finally {
    wh.close();
  }
}, 120_000);
afterAll(() => tmp?.cleanup());

describe('the lake\'s Iceberg metadata against the spec\'s TableMetadata', () => {
  it('every metadata file of every table validates, field by field, with every v2-required field', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ajv.addSchema(closedDefinitions());
    const validate = ajv.getSchema('iceberg-rest#/components/schemas/TableMetadata')!;
    let checked = 0;
    for (const t of LAKE_TABLES) {
      const dir = join(lake, t.name, 'metadata');
      const files = readdirSync(dir).filter((f) => f.endsWith('.metadata.json'));
      expect(files.length, t.name).toBeGreaterThan(0);
      for (const f of files) {
        const m = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
        expect(validate(m), `${t.name}/${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
        expect(V2_REQUIRED.filter((k) => !(k in m)), `${t.name}/${f}`).toEqual([]);
        expect(m['format-version']).toBe(2);
        checked++;
      }
    }
    // Two exports, the second changing conversations and sources: those have a second version.
    expect(checked).toBeGreaterThan(LAKE_TABLES.length);
  });

  it('an invented field fails the check (the definitions are closed)', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ajv.addSchema(closedDefinitions());
    const validate = ajv.getSchema('iceberg-rest#/components/schemas/TableMetadata')!;
    const hint = readFileSync(join(lake, 'conversations', 'metadata', 'version-hint.text'), 'utf8').trim();
    const m = JSON.parse(readFileSync(join(lake, 'conversations', 'metadata', `v${hint}.metadata.json`), 'utf8')) as Record<string, unknown>;
    expect(validate(m)).toBe(true);
    const snapshots = m.snapshots as Record<string, unknown>[];
    expect(validate({ ...m, snapshots: [{ ...snapshots[0], 'manifest_list': 'x' }] })).toBe(false);
    expect(validate({ ...m, 'last-column-id': '7' })).toBe(false);
  });
});
