// Millions of turns: compact columns (bytes per turn), and reads whose cost follows what they
// return, not the size of the data: a 1-hour window out of 2M turns reads only the blocks it
// meets, and a cursor chain resumes where it stopped. Checked on the twin itself (its `examined`
// counter), with results equal to the compact truth.
import { describe, expect, it } from 'vitest';
import { AnalyticsTwin } from '../../src/tools/sandbox/analytics-twin.js';
import { trafficOptions } from '../../src/tools/sandbox/index.js';
import { defaultSandboxOptions } from '../../src/tools/sandbox/defaults.js';
import { ProjectDataset } from '../../src/tools/sandbox/dataset.js';
import { FakeClock, instantOf, START } from './helpers.js';

const HOUR = 3_600_000;

function chain(twin: AnalyticsTwin, fromMs: number | null, toMs: number | null) {
  const keys: string[] = [];
  let examined = 0;
  let pages = 0;
  let cursor: string | null = null;
  do {
    const page = twin.page('demo', { limit: 1000, fromMs, toMs, cursor });
    for (const r of page.conversations) keys.push(`${String(r.id)}@${instantOf(r.timestamp)}`);
    examined += page.examined;
    pages++;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { keys, examined, pages };
}

describe('at scale', () => {
  it('2M turns of traffic: a 1-hour window reads its own blocks only; a full-range page about its own turns', () => {
    const twin = new AnalyticsTwin(defaultSandboxOptions({ clock: new FakeClock(), traffic: trafficOptions(1_000_000), historyDays: 2 }));
    const total = twin.visibleCount('demo');
    expect(total).toBeGreaterThan(1_950_000);

    const window = { fromMs: START - 20 * HOUR, toMs: START - 19 * HOUR };
    const r = chain(twin, window.fromMs, window.toMs);
    const truth = twin.truthKeys('demo', window);
    expect(r.keys.length).toBe(truth.count);
    expect(new Set(r.keys)).toEqual(new Set(truth.id.map((id, i) => `${id}@${truth.timestampMs[i]}`)));
    expect(r.pages).toBe(Math.ceil(truth.count / 1000));
    // the hour's block and the previous one (whose conversations spill into it): ~2× what is served
    expect(r.examined).toBeLessThan(2.5 * truth.count);
    expect(r.examined).toBeLessThan(total / 20);

    // a full-range page looks at the turns it serves plus the next one of each block (49 hours)
    let cursor: string | null = null;
    for (let p = 0; p < 3; p++) {
      const page = twin.page('demo', { limit: 1000, fromMs: null, toMs: null, cursor });
      expect(page.examined).toBeLessThanOrEqual(1001 + 49);
      cursor = page.nextCursor;
    }
  });

  it('stores about 30 bytes per turn in typed arrays, for history and for traffic', () => {
    for (const traffic of [null, trafficOptions(200_000)]) {
      const ds = new ProjectDataset({
        seed: 42, projectId: 'demo', startMs: START, conversations: 200_000, historyDays: traffic ? 1 : 30, liveTurnsPerMinute: 0, traffic,
      });
      const blocks = ds.blocks(START, false);
      const turns = blocks.reduce((n, b) => n + b.length, 0);
      const bytes = new Set(blocks.flatMap((b) => [...Object.values(b.cols), b.src.convStart, b.order.kind === 'fixed' ? b.order.seqs : null]
        .filter((v): v is Float64Array => ArrayBuffer.isView(v)).map((v) => v.buffer)));
      const total = [...bytes].reduce((n, buf) => n + buf.byteLength, 0);
      expect(turns).toBeGreaterThan(190_000);
      expect(total / turns).toBeLessThan(34);
    }
  });

  it('a 1-hour window of a 500k-turn history reads one or two time slices', () => {
    const twin = new AnalyticsTwin(defaultSandboxOptions({ clock: new FakeClock(), conversations: 500_000, historyDays: 30 }));
    const window = { fromMs: START - 100 * HOUR, toMs: START - 99 * HOUR };
    const r = chain(twin, window.fromMs, window.toMs);
    expect(r.keys.length).toBe(twin.truthKeys('demo', window).count);
    expect(r.keys.length).toBeGreaterThan(500);
    expect(r.examined).toBeLessThan(25_000); // slices are 6 h of a 30-day history: ~4k turns each
  });
});
