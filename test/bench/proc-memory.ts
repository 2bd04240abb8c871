// Resident memory of a process from /proc (Linux): VmHWM is the kernel's own record of the peak
// resident set, so it catches short spikes that sampling would miss.
import { readFileSync } from 'node:fs';

export interface ProcMemory {
  /** Current resident set, kB. */
  rssKb: number;
  /** Peak resident set since the process started, kB. */
  hwmKb: number;
}

/** The memory of `pid` ('self' for this process), or null when /proc is unavailable or the process is gone. */
export function procMemory(pid: number | 'self' = 'self'): ProcMemory | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  const rssKb = kb('VmRSS');
  const hwmKb = kb('VmHWM');
  return Number.isFinite(rssKb) && Number.isFinite(hwmKb) ? { rssKb, hwmKb } : null;
}

/** Samples another process's resident set until stopped; returns the largest sample, kB. */
export function sampleRss(pid: number, everyMs = 100): { stop(): number } {
  let peak = 0;
  const tick = () => {
    const m = procMemory(pid);
    if (m) peak = Math.max(peak, m.rssKb, m.hwmKb);
  };
  const timer = setInterval(tick, everyMs);
  tick();
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return peak;
    },
  };
}
