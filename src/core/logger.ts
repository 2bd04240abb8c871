// pino JSON lines to stderr. Redaction covers every place a key could be carried.
import { pino, type Logger } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'key', '*.key', 'authorization', '*.authorization', 'headers.authorization',
  '*.headers.authorization', 'req.headers.authorization', 'Authorization', '*.Authorization',
];

export function createLogger(opts: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      base: undefined,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    (opts.destination as pino.DestinationStream | undefined) ?? pino.destination({ fd: 2, sync: true }),
  );
}

export const silentLogger: Logger = pino({ level: 'silent' });
