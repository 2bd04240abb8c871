// Rule 9, never landed twice (issue 23, B): a page with an invalid record lands each record once:
// the valid ones in `valid`, the invalid one in `invalid[].raw` (whole, with its reason), the body
// reduced to its page-level fields. A 2 MB invalid record costs the landing zone about the page's
// size, not twice it, and goes to `quarantine` whole; the other 59 turns load. Real CLI, hostile
// server on 127.0.0.1; the landed page read back from the kept copy (--keep-raw).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { query } from '../reliability/reliability-helpers.js';
import { tempDir } from '../helpers/tmp.js';
import { expectBoundedMemory, expectKeyAbsent, filesUnder, hostileServer, oneWindow, page, runMeasured, turns, type Hostile } from './hostile.js';

const KEY = 'mint_hostile_landed_once_key_3';
const tmp = tempDir('docs-etl-hostile-9o-');
const servers: Hostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  tmp.cleanup();
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('rule 9: an invalid record is stored once', () => {
  it('a page with a 2 MB invalid record: landed bytes about the page size, the record once; quarantine has it whole with the reason; 59 load', async () => {
    const big = randomBytes(1_500_000).toString('base64'); // 2 MB of text gzip cannot shrink to nothing
    const t = turns(60, 'o_');
    const body = JSON.stringify(page([...t.slice(0, 5), { ...t[5], response: big, resolutionStatus: 'exploded' }, ...t.slice(6)], null));
    const s = await hostileServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    servers.push(s);
    const dir = join(tmp.dir, 'once');
    const warehouse = join(dir, 'w.duckdb');
    const r = await runMeasured(['sync', '--warehouse', warehouse, '--keep-raw', '1d', ...oneWindow()],
      { DOCS_API_BASE_URL: s.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo' }, join(dir, 'peak'));
    expect(r.code, r.stderr).toBe(0);

    const kept = filesUnder(join(dir, 'landing')).filter((f) => f.endsWith('.json.gz'));
    expect(kept).toHaveLength(1);
    const landed = gunzipSync(readFileSync(kept[0]!)).toString('utf8');
    expect(occurrences(landed, big)).toBe(1);
    expect(landed.length).toBeGreaterThan(big.length);
    expect(landed.length).toBeLessThan(body.length * 1.1);
    const parsed = JSON.parse(landed) as { stripped?: boolean; valid: unknown[]; invalid: { i: number; error: string }[]; body: { conversations: unknown[]; nextCursor: unknown } };
    expect(parsed).toMatchObject({ stripped: true, body: { conversations: [], nextCursor: null } });
    expect(parsed.valid).toHaveLength(59);
    expect(parsed.invalid.map((q) => q.i)).toEqual([5]);

    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations'))[0]!.n).toBe(59);
    const q = await query(warehouse, "SELECT json_extract_string(raw, '$.id') AS id, json_extract_string(raw, '$.response') = $big AS whole, json_extract(raw, '$._docs_etl_truncated') IS NULL AS uncut, error FROM quarantine".replace('$big', `'${big}'`));
    expect(q).toEqual([{ id: 'o_0005', whole: true, uncut: true, error: expect.stringMatching(/^resolutionStatus: /) as unknown }]);
    expectBoundedMemory(r);
    expectKeyAbsent(KEY, r, [dir]);
  }, 120_000);
});
