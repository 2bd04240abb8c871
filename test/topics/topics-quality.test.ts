// The gap topics on the labelled sets nobody tuned them to (issue 37; harness: test/bench/topics-quality.ts,
// also `npm run bench -- --scenario topics-quality`). Parameters were chosen on the payments set only.
// Asserted: what holds today (figures in docs/topics.md). The targets of issue 37 (precision ≥ 0.9,
// recall ≥ 0.85 on the held-out sets) are NOT met: the harness prints the figures.
import { describe, expect, it } from 'vitest';
import { topicsQualityBench } from '../bench/topics-quality.js';

describe('gap topics on the labelled quality sets', () => {
  it('keeps languages apart, keeps ids when 10% more questions arrive, and beats the figures before the cohesion split', { timeout: 300_000 }, async () => {
    const results = await topicsQualityBench();
    for (const r of results) {
      // One topic of the analytics set mixes Portuguese with English: "configurar react native" has no
      // stop word (undetermined: joins the main language) and "instalar pulsekit no react native"
      // ties English and Portuguese on "no". Known languages never mix.
      expect(r.full.mixedLanguageShare, r.set).toBeLessThanOrEqual(r.set === 'analytics' ? 0.02 : 0);
      expect(r.stableHourly, r.set).toBeGreaterThanOrEqual(0.95);
      expect(r.stableFull, r.set).toBeGreaterThanOrEqual(0.9);
      // Before the split and the merge rule: precision 0.34-0.57 on these sets.
      expect(r.full.precision, r.set).toBeGreaterThanOrEqual(0.5);
    }
  });
});
