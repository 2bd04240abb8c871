// A long run (a backfill) publishes the read snapshot between merge batches too, at most every
// publishInterval (measured on the run's clock), so readers see its progress; each publish is of
// whole merged batches. The publish is queued on the writer (after the batch that triggered it) and
// not awaited by the merger, which must not wait on its own queue; the run awaits what is still in
// flight before its final publish and before it closes the warehouse (settle), so no publish runs
// on a closed connection and none is left as a floating promise. A failed one is logged and retried
// by the next publish.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { messageOf } from '../../core/errors.js';
import type { Writer } from '../../warehouse/writer.js';
import type { Published } from '../publish/snapshot.js';

export class MidRunPublisher {
  private last: number;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly deps: {
    clock: Clock;
    logger: Logger;
    intervalMs: number;
    writer: Writer;
    /** Publishes on the writer's connection (the caller sets its memory pool). */
    publish: (conn: Parameters<Parameters<Writer['run']>[0]>[0]) => Promise<Published>;
  }) {
    this.last = deps.clock.now().getTime();
  }

  /** After a merged batch: queue a publish when the interval has passed since the last one. */
  afterBatch(): void {
    const nowMs = this.deps.clock.now().getTime();
    if (nowMs - this.last < this.deps.intervalMs) return;
    this.last = nowMs;
    const { writer, logger } = this.deps;
    const done = writer.run((c) => this.deps.publish(c)).then(
      (p) => {
        for (const w of p.warnings ?? []) logger.warn(w);
        logger.info({ path: p.path, ms: Math.round(p.ms) }, 'read snapshot published (run in progress)');
      },
      (err: unknown) => logger.warn({ err: messageOf(err) }, 'publishing the read snapshot failed; the next publish retries'),
    );
    this.inFlight = Promise.all([this.inFlight, done]).then(() => undefined);
  }

  /** Resolves when every publish queued so far has ended (never rejects: failures are logged). */
  settle(): Promise<void> {
    return this.inFlight;
  }
}
