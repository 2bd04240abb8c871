// `docs-etl lake ddl`: the statements that register every lake table in an engine with its
// current Iceberg metadata file (and, where the engine pins a metadata file, refresh it after an
// export). Pure text from each table's location and current metadata file; docs/lake.md shows them.
import { quotedIdentifier, quotedString } from '../../../core/sql-quoting.js';

export const ENGINES = ['duckdb', 'spark', 'trino', 'athena', 'snowflake', 'bigquery'] as const;
export type Engine = (typeof ENGINES)[number];

export interface TableRef {
  table: string;
  /** The table's base location URI (file:///…, s3://…, gs://…). */
  location: string;
  /** The current vN.metadata.json URI. */
  metadataFile: string;
}

const q = quotedString;
const fileName = (uri: string) => uri.slice(uri.lastIndexOf('/') + 1);
/** The metadata file relative to the lake root (Snowflake's METADATA_FILE_PATH under an external volume on the lake). */
const relativeToLake = (r: TableRef) => `${r.table}/metadata/${fileName(r.metadataFile)}`;
const lakeRoot = (r: TableRef) => r.location.slice(0, r.location.length - r.table.length - 1);
const s3a = (uri: string) => uri.replace(/^s3:\/\//, 's3a://');
/** One POSIX shell word: single-quoted, a quote inside closed, escaped and reopened. */
const shellWord = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
/** A Spark identifier in backquotes (a backquote inside doubled). */
const sparkId = (name: string) => `\`${name.replaceAll('`', '``')}\``;

/**
 * Names printed bare (Snowflake and BigQuery identifiers, Athena's --database-name shell word) are
 * plain names only. Snowflake's are left unquoted on purpose: unquoted, `docs.conversations`
 * folds to DOCS.CONVERSATIONS, the name users type unquoted; quoted, it would be a lower-case name
 * every query must then quote. The schema is checked by `--schema`, the tables are the declared
 * lake tables; this guard keeps any other caller from printing a name that would end a statement,
 * a quote or a shell word early.
 */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
function checkPlainNames(refs: readonly TableRef[], schema: string): void {
  for (const name of [schema, ...refs.map((r) => r.table)]) {
    if (!PLAIN_NAME.test(name)) throw new Error(`lake ddl: ${JSON.stringify(name)} is not a plain name (letters, digits, _)`);
  }
}

export function ddl(engine: Engine, refs: readonly TableRef[], schema: string): string {
  checkPlainNames(refs, schema);
  const lines: string[] = [];
  const id = quotedIdentifier;
  switch (engine) {
    case 'duckdb':
      lines.push('INSTALL iceberg; LOAD iceberg;   -- and httpfs with an S3 secret for an s3:// lake', `CREATE SCHEMA IF NOT EXISTS ${id(schema)};`);
      for (const r of refs) lines.push(`CREATE OR REPLACE VIEW ${id(schema)}.${id(r.table)} AS SELECT * FROM iceberg_scan(${q(r.metadataFile)});`);
      lines.push('-- after each export: run these statements again (each view names one metadata file)');
      break;
    case 'spark': {
      // A Hadoop catalog over the lake's parent folder reads version-hint.text: always the current snapshot.
      const root = refs[0] ? lakeRoot(refs[0]) : '';
      const parent = root.slice(0, root.lastIndexOf('/'));
      // The namespace is the lake folder's name as the file system has it (the URI escapes it: %20).
      const ns = decodeURIComponent(root.slice(root.lastIndexOf('/') + 1));
      lines.push(
        '-- spark-defaults.conf (or --conf): a Hadoop catalog whose warehouse is the lake\'s parent folder; it reads',
        '-- metadata/version-hint.text, so every query sees the last export with no refresh',
        `--   spark.sql.catalog.docs_lake=org.apache.iceberg.spark.SparkCatalog`,
        `--   spark.sql.catalog.docs_lake.type=hadoop`,
        `--   spark.sql.catalog.docs_lake.warehouse=${s3a(parent)}`,
      );
      for (const r of refs) lines.push(`SELECT count(*) FROM docs_lake.${sparkId(ns)}.${sparkId(r.table)};   -- or spark.read.format("iceberg").load("${s3a(r.location)}")`);
      break;
    }
    case 'trino':
      for (const r of refs) {
        lines.push(`CALL iceberg.system.register_table(schema_name => ${q(schema)}, table_name => ${q(r.table)}, table_location => ${q(r.location)}, metadata_file_name => ${q(fileName(r.metadataFile))});`);
      }
      lines.push(`-- after each export: CALL iceberg.system.unregister_table(schema_name => ${q(schema)}, table_name => '<table>'); then its register_table again`);
      break;
    case 'athena':
      lines.push(`-- Athena reads Iceberg tables of the Glue catalog; register (or, after each export, update) each one with the AWS CLI:`);
      for (const r of refs) {
        const input = JSON.stringify({
          Name: r.table, TableType: 'EXTERNAL_TABLE',
          Parameters: { table_type: 'ICEBERG', metadata_location: r.metadataFile },
          StorageDescriptor: { Location: r.location },
        });
        lines.push(`aws glue update-table --database-name ${schema} --table-input ${shellWord(input)} || aws glue create-table --database-name ${schema} --table-input ${shellWord(input)}`);
      }
      break;
    case 'snowflake':
      lines.push(
        `-- once: an external volume whose STORAGE_BASE_URL is the lake (${refs[0] ? lakeRoot(refs[0]) : '<lake>'}/) named docs_lake_volume, and`,
        `CREATE CATALOG INTEGRATION IF NOT EXISTS docs_lake_catalog CATALOG_SOURCE = OBJECT_STORE TABLE_FORMAT = ICEBERG ENABLED = TRUE;`,
        `CREATE SCHEMA IF NOT EXISTS ${schema};`,
      );
      for (const r of refs) {
        lines.push(`CREATE ICEBERG TABLE IF NOT EXISTS ${schema}.${r.table} EXTERNAL_VOLUME = 'docs_lake_volume' CATALOG = 'docs_lake_catalog' METADATA_FILE_PATH = ${q(relativeToLake(r))};`);
        lines.push(`ALTER ICEBERG TABLE ${schema}.${r.table} REFRESH ${q(relativeToLake(r))};   -- after each export`);
      }
      break;
    case 'bigquery':
      lines.push(`-- the lake on Google Cloud Storage (s3:// through GCS interoperability: docs-etl then writes gs:// paths); a BigLake connection named docs_lake`);
      for (const r of refs) {
        lines.push(`CREATE OR REPLACE EXTERNAL TABLE \`${schema}.${r.table}\` WITH CONNECTION \`us.docs_lake\` OPTIONS (format = 'ICEBERG', uris = [${q(r.metadataFile)}]);`);
      }
      lines.push('-- after each export: run these statements again (each names one metadata file)');
      break;
  }
  return `${lines.join('\n')}\n`;
}
