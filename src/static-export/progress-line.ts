// One self-overwriting status line on a terminal (stderr); nothing at all when not a TTY, where
// the JSON log lines carry the same information.
export interface ProgressLine {
  update(text: string): void;
  /** Ends the line so later output starts on a fresh one. */
  done(): void;
}

export const noProgressLine: ProgressLine = { update: () => {}, done: () => {} };

export function progressLine(stream: NodeJS.WritableStream & { isTTY?: boolean }): ProgressLine {
  if (!stream.isTTY) return noProgressLine;
  let shown = false;
  return {
    update(text) {
      stream.write(`\r\x1b[2K${text}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\n');
      shown = false;
    },
  };
}
