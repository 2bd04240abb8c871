import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizePage } from '../../src/normalize/turns.js';
import { writePage } from '../../src/load/page-writer.js';
import { openWindow, readSyncState } from '../../src/load/sync-state.js';
import { startRun } from '../../src/load/sync-runs.js';
import { openWarehouse, type Warehouse } from '../../src/load/warehouse.js';
import { tempDir } from '../helpers/tmp.js';

const turn = (over: Record<string, unknown> = {}) => ({
  id: 'conv-1', timestamp: '2026-03-01T10:00:00.000+02:00', query: 'How do I "auth"?\nwith é 日本', response: 'Use a key',
  sources: [{ title: 'Auth', url: 'https://docs.example.com/auth' }, { title: 'Keys', url: 'https://docs.example.com/keys' }],
  resolutionStatus: 'answered', queryCategory: null, pageUrl: 'https://docs.example.com/guides/start?x=1#top', ...over,
});

describe('writePage', () => {
  let tmp: ReturnType<typeof tempDir>;
  let wh: Warehouse;
  const t0 = new Date('2026-03-02T00:00:00Z');
  beforeEach(async () => {
    tmp = tempDir();
    wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
    await startRun(wh.conn, { runId: 'r1', projectId: 'p', pipeline: 'assistant', now: t0 });
    await openWindow(wh.conn, { projectId: 'p', pipeline: 'assistant', organization: 'org_x', window: { from: null, to: t0 }, runId: 'r1', now: t0 });
  });
  afterEach(() => { wh.close(); tmp.cleanup(); });

  const write = async (records: unknown[], complete = false, now = t0) => {
    const n = normalizePage(records);
    return writePage(wh.conn, {
      projectId: 'p', pipeline: 'assistant', runId: 'r1', now,
      json: n.valid.length ? { text: JSON.stringify({ conversations: n.valid }) } : null,
      quarantined: n.quarantined, checkpoint: { cursor: complete ? null : 'CUR', complete }, requests: 1,
    });
  };
  const rows = async (sql: string) => (await wh.conn.runAndReadAll(sql)).getRowObjectsJson();

  it('stores a turn in UTC with its sources, path, extra and default response type', async () => {
    await write([turn({ locale: 'de' }), turn({ id: 'conv-2', responseType: 'clarifying_question', pageUrl: null, sources: [] })]);
    const c = await rows(`SELECT id, occurred_at::VARCHAR t, query, response_type, page_path, extra::VARCHAR extra FROM conversations ORDER BY id`);
    expect(c).toEqual([
      { id: 'conv-1', t: '2026-03-01 08:00:00+00', query: 'How do I "auth"?\nwith é 日本', response_type: 'answer', page_path: '/guides/start', extra: '{"locale":"de"}' },
      { id: 'conv-2', t: '2026-03-01 08:00:00+00', query: 'How do I "auth"?\nwith é 日本', response_type: 'clarifying_question', page_path: null, extra: null },
    ]);
    expect(await rows(`SELECT conversation_id, position, url FROM sources ORDER BY position`)).toEqual([
      { conversation_id: 'conv-1', position: 1, url: 'https://docs.example.com/auth' },
      { conversation_id: 'conv-1', position: 2, url: 'https://docs.example.com/keys' },
    ]);
  });

  it('replaces a re-read turn (same instant, other offset) and its sources, keeping first_seen_at', async () => {
    await write([turn()]);
    const later = new Date('2026-03-03T00:00:00Z');
    await write([turn({ timestamp: '2026-03-01T08:00:00Z', queryCategory: 'auth', sources: [{ title: 'New', url: 'https://d/new' }] })], false, later);
    expect(await rows(`SELECT query_category, first_seen_at::VARCHAR f, last_seen_at::VARCHAR l, updated_at::VARCHAR u FROM conversations`)).toEqual([
      { query_category: 'auth', f: '2026-03-02 00:00:00+00', l: '2026-03-03 00:00:00+00', u: '2026-03-03 00:00:00+00' },
    ]);
    expect(await rows(`SELECT title FROM sources`)).toEqual([{ title: 'New' }]);
  });

  it('keeps updated_at when a re-read changes nothing', async () => {
    await write([turn()]);
    await write([turn()], false, new Date('2026-03-05T00:00:00Z'));
    expect(await rows(`SELECT updated_at::VARCHAR u, last_seen_at::VARCHAR l FROM conversations`)).toEqual([
      { u: '2026-03-02 00:00:00+00', l: '2026-03-05 00:00:00+00' },
    ]);
  });

  it('quarantines invalid records with the reason and loads the rest; repeated turns count once', async () => {
    const r = await write([turn(), turn(), { ...turn(), resolutionStatus: 'maybe' }, { ...turn(), timestamp: 'yesterday' }]);
    expect(r.upserted).toBe(1);
    const q = await rows(`SELECT error, raw->>'timestamp' ts FROM quarantine ORDER BY error`);
    expect(q).toHaveLength(2);
    expect(q[0]!.error).toMatch(/resolutionStatus/);
    expect(q[1]!.error).toMatch(/timestamp/);
  });

  it('moves the checkpoint with the page and closes the window on the last page', async () => {
    await write([turn()]);
    let s = await readSyncState(wh.conn, 'p', 'assistant');
    expect(s.open).toMatchObject({ cursor: 'CUR', pages: 1, rows: 1 });
    await write([turn({ id: 'conv-9' })], true);
    s = await readSyncState(wh.conn, 'p', 'assistant');
    expect(s).toEqual({ highWater: t0, open: null });
  });
});
