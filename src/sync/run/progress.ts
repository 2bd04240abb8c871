// A progress line on a TTY (cli-progress, no bar: the total is unknown until the last page).
// cli-progress is loaded only for a TTY: a scheduled or piped sync never pays for it.
import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';

export interface ProgressLine {
  update(fields: { project: string; pages: number; turns: number; requests: number; budget: string }): void;
  stop(): void;
}

export function createProgressLine(stream: NodeJS.WritableStream & { isTTY?: boolean }): ProgressLine {
  if (!stream.isTTY) return { update: () => {}, stop: () => {} };
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WritableStream,
      format: '{project}: {pages} pages | {turns} turns | {requests} requests | budget left {budget}',
      hideCursor: true,
      clearOnComplete: true,
      fps: 5,
    },
    cliProgress.Presets.rect,
  );
  let started = false;
  return {
    update(f) {
      if (!started) {
        bar.start(0, 0, f);
        started = true;
      }
      bar.update(0, f);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
