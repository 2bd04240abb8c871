// `docs-etl lake ddl --engine E [--table T] [--lake DIR|s3://…]`: the statements that register
// every lake table as an Iceberg table in an engine, with its current metadata file
// (src/outputs/lake/iceberg/lake-ddl.ts). Reads only the lake's metadata; writes nothing.
import { Command, InvalidArgumentError, Option } from 'commander';
import { EXIT, FatalError, UsageError } from '../../core/errors.js';
import { LAKE_TABLES } from '../lake-tables.js';
import { openIcebergIO } from '../../outputs/lake/iceberg/iceberg-io.js';
import { ddl, ENGINES, type Engine, type TableRef } from '../../outputs/lake/iceberg/lake-ddl.js';
import { readTableState, versionKey } from '../../outputs/lake/iceberg/table-state.js';
import { parseLakeLocation } from '../../outputs/lake/lake-location.js';
import type { CommandFactory } from './index.js';

interface DdlFlags {
  engine: Engine;
  table?: string[];
  lake?: string;
  schema: string;
}

export const lakeCommand: CommandFactory = (ctx, setExitCode) => {
  const lake = new Command('lake').description('the Parquet lake as Iceberg tables: statements for other engines');
  lake.addCommand(new Command('ddl')
    .description('print the statements that register every lake table (Iceberg) in an engine, with its current metadata file')
    .addOption(new Option('--engine <engine>', ENGINES.join(', ')).choices(ENGINES).makeOptionMandatory())
    .option('--table <name>', 'only this table (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option('--lake <dir|s3://bucket/prefix>', 'the lake (default DOCS_ETL_LAKE)')
    .option('--schema <name>', 'the schema / database / dataset the tables go in (default docs)', (v: string) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) throw new InvalidArgumentError('a plain name: letters, digits, _');
      return v;
    }, 'docs')
    .addHelpText('after', `
Run after an export: each statement names the table's current metadata/vN.metadata.json (docs/lake.md).
Exit codes: 0 printed, 1 the lake cannot be read or a table has no Iceberg metadata yet, 2 bad usage.`)
    .action(async (flags: DdlFlags) => {
      const location = flags.lake ?? ctx.env.DOCS_ETL_LAKE;
      if (!location) throw new UsageError('lake ddl: give --lake DIR|s3://bucket/prefix (or set DOCS_ETL_LAKE)');
      parseLakeLocation(location, '--lake');
      const known = new Set(LAKE_TABLES.map((t) => t.name));
      const unknown = (flags.table ?? []).filter((t) => !known.has(t));
      if (unknown.length) throw new UsageError(`--table: unknown lake table ${unknown.join(', ')}; lake tables are ${[...known].join(', ')}`);
      const io = await openIcebergIO(location, ctx.env);
      try {
        const refs: TableRef[] = [];
        for (const t of LAKE_TABLES.filter((x) => !flags.table || flags.table.includes(x.name))) {
          const state = await readTableState(io, t.name);
          if (!state.metadata) throw new FatalError(`lake table ${t.name} has no Iceberg metadata in ${location} yet: run \`docs-etl export-parquet --out ${location}\` first`);
          refs.push({ table: t.name, location: state.metadata.location, metadataFile: io.uri(versionKey(t.name, state.version)) });
        }
        ctx.stdout.write(ddl(flags.engine, refs, flags.schema));
        setExitCode(EXIT.ok);
      } finally {
        io.close();
      }
    }));
  return lake;
};
