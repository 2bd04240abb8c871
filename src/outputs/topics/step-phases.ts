// Where a topic step's time and memory go (docs/performance.md, gap topics): each named phase's
// wall time and the peak resident set sampled while it ran. Returned with the step's result (the
// bench prints it); not recorded in gap_topic_runs.

export interface StepPhase {
  phase: string;
  /** Wall time, ms (summed over the phase's runs). */
  ms: number;
  /** CPU time of the whole process (JS and DuckDB's threads), ms: wall time on a loaded machine is not the step's cost. */
  cpuMs: number;
  /** Highest RSS sampled during the phase (at its end and at every progress call), MB. */
  peakRssMb: number;
}

/**
 * Phases in order of first use; `mark(name)` closes the phase that ran since the previous mark. A
 * name marked again (a statement of each batch) adds its time and keeps the higher peak.
 */
export class StepPhases {
  readonly phases: StepPhase[] = [];
  private last = performance.now();
  private lastCpu = cpuMs();
  private peak = 0;

  /** Samples the resident set (progress callbacks call it). */
  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
  }

  mark(phase: string): void {
    this.sample();
    const now = performance.now();
    const ms = now - this.last;
    const cpu = cpuMs() - this.lastCpu;
    const peakRssMb = Math.round(this.peak / 1048576);
    const seen = this.phases.find((p) => p.phase === phase);
    if (seen) [seen.ms, seen.cpuMs, seen.peakRssMb] = [seen.ms + ms, seen.cpuMs + cpu, Math.max(seen.peakRssMb, peakRssMb)];
    else this.phases.push({ phase, ms, cpuMs: cpu, peakRssMb });
    this.last = now;
    this.lastCpu += cpu;
    this.peak = 0;
  }
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
