// Compares a warehouse with the sandbox's ground truth, turn by turn and source by source.
import { normalizeOffset, type ConversationTurn } from '../../src/contracts/analytics.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';

export interface TurnRow {
  id: string;
  at: string;
  query: string;
  response: string;
  response_type: string;
  resolution_status: string;
  query_category: string | null;
  page_url: string | null;
  sources: string;
}

const key = (r: TurnRow) => `${r.id}|${r.at}`;
const sorted = (rows: TurnRow[]) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

export function expectedRows(truth: ConversationTurn[]): TurnRow[] {
  return sorted(truth.map((t) => ({
    id: t.id,
    at: new Date(normalizeOffset(t.timestamp)).toISOString(),
    query: t.query,
    response: t.response,
    response_type: t.responseType ?? 'answer',
    resolution_status: t.resolutionStatus,
    query_category: t.queryCategory,
    page_url: t.pageUrl,
    sources: JSON.stringify(t.sources.map((s) => [s.title, s.url])),
  })));
}

export async function warehouseRows(path: string, projectId: string): Promise<TurnRow[]> {
  const wh = await openWarehouse(path, { readOnly: true });
  try {
    const r = await wh.conn.runAndReadAll(
      `SELECT c.id, epoch_ms(c.occurred_at) AS ms, c.query, c.response, c.response_type, c.resolution_status, c.query_category, c.page_url,
              coalesce((SELECT list([s.title, s.url] ORDER BY s.position) FROM sources s
                        WHERE s.project_id = c.project_id AND s.conversation_id = c.id AND s.occurred_at = c.occurred_at), []) AS src
       FROM conversations c WHERE c.project_id = $p`,
      { p: projectId },
    );
    return sorted(r.getRowObjectsJS().map((x) => ({
      id: String(x.id),
      at: new Date(Number(x.ms)).toISOString(),
      query: String(x.query),
      response: String(x.response),
      response_type: String(x.response_type),
      resolution_status: String(x.resolution_status),
      query_category: (x.query_category as string | null) ?? null,
      page_url: (x.page_url as string | null) ?? null,
      sources: JSON.stringify(x.src),
    })));
  } finally {
    wh.close();
  }
}

export async function scalar(path: string, sql: string): Promise<unknown> {
  const wh = await openWarehouse(path, { readOnly: true });
  try {
    return (await wh.conn.runAndReadAll(sql)).getRows()[0]?.[0];
  } finally {
    wh.close();
  }
}

/** Every row of a query on a warehouse opened read-only, as plain JS objects; values bound by name. */
export async function queryRows(path: string, sql: string, params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
  const wh = await openWarehouse(path, { readOnly: true });
  try {
    return (await wh.conn.runAndReadAll(sql, params)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    wh.close();
  }
}
