import { describe, expect, it } from 'vitest';
import { StepPhases } from '../../src/outputs/topics/step-phases.js';

describe('step phases (the topic step\'s time breakdown)', () => {
  it('lists phases in order of first use, adding the time of a phase marked again (each batch)', async () => {
    const p = new StepPhases();
    await new Promise((r) => setTimeout(r, 20));
    p.mark('read');
    p.mark('join');
    await new Promise((r) => setTimeout(r, 20));
    p.mark('read');
    expect(p.phases.map((x) => x.phase)).toEqual(['read', 'join']);
    expect(p.phases[0]!.ms).toBeGreaterThanOrEqual(35);
    expect(p.phases[1]!.ms).toBeLessThan(p.phases[0]!.ms);
    expect(p.phases[0]!.peakRssMb).toBeGreaterThan(0);
  });
});
