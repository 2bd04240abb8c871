// A logger whose JSON lines are kept, parsed, for a test to read what an operator would.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/core/logger.js';

export function capturingLogger(level: 'debug' | 'info' = 'info'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines };
}
