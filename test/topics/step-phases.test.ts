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

  it('counts the CPU a phase used, not the time it waited', async () => {
    const p = new StepPhases();
    await new Promise((r) => setTimeout(r, 60));
    p.mark('wait');
    const until = performance.now() + 60;
    while (performance.now() < until) Math.sqrt(Math.random());
    p.mark('work');
    const [wait, work] = p.phases;
    expect(wait!.cpuMs).toBeLessThan(wait!.ms / 2);
    // On a loaded machine the loop gets less than its wall time of CPU; it still gets some.
    expect(work!.cpuMs).toBeGreaterThan(5);
  });
});
