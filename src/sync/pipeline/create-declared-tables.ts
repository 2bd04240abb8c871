// A pipeline's declared tables that the warehouse does not have yet are created from their
// declaration at the start of a run (a no-op for a table a numbered migration created).
import type { DuckDBConnection } from '@duckdb/node-api';
import { createTableSql } from './declared-table.js';
import type { PipelineDefinition } from './definition.js';

export async function createDeclaredTables(conn: DuckDBConnection, pipelines: readonly PipelineDefinition[]): Promise<void> {
  for (const t of pipelines.flatMap((p) => p.declaredTables)) await conn.run(createTableSql(t));
}
