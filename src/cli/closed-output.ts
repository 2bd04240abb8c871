// The one place a command waits on its output: a reader that went away (`docs-etl query … | head`)
// closes the pipe, and a write waiting for 'drain' would then wait forever (Node reports an
// "unsettled top-level await", exit 13). Such a wait ends with OutputClosed instead, which main.ts
// turns into a quiet exit 0: the reader has what it wanted, as `git log | head` does.

/** The reader of stdout went away: stop producing output; not an error the user sees. */
export class OutputClosed extends Error {
  constructor() {
    super('output closed by its reader');
    this.name = 'OutputClosed';
  }
}

/** Writes `s`, then resolves once `out` can take more; rejects with OutputClosed once `out` is closed. */
export function writeDrained(out: NodeJS.WritableStream, s: string): Promise<void> {
  const w = out as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  if (w.destroyed || w.writableEnded) return Promise.reject(new OutputClosed());
  if (out.write(s)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const settle = (closed: boolean) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', onClose);
      if (closed) reject(new OutputClosed());
      else resolve();
    };
    const onDrain = () => settle(false);
    const onClose = () => settle(true);
    out.on('drain', onDrain);
    out.on('close', onClose);
    out.on('error', onClose);
  });
}
