// Preloaded into a CLI child (`node --import`): at exit, writes the process's peak resident set
// (VmHWM, kB) to $HOSTILE_PEAK_FILE. The kernel's own record: no sampling, no missed spike.
import { readFileSync, writeFileSync } from 'node:fs';

const out = process.env.HOSTILE_PEAK_FILE;
if (out) {
  process.on('exit', () => {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (hwm) writeFileSync(out, hwm);
  });
}
