// Issued cursors. A cursor is the rowId of the last row of a page; only cursors this sandbox
// issued (for that project), not older than `cursorTtlMs` and not forgotten by expireAll() are
// accepted — anything else is a 400, as after a restart of the real service.

export interface IssuedCursor {
  issuedAt: number;
  /** The record served last on the page that issued the cursor (for the `repeat` fault). */
  lastRecord: unknown;
}

export class CursorRegistry {
  private readonly issued = new Map<string, IssuedCursor>();

  issue(projectId: string, cursor: string, now: number, lastRecord: unknown): void {
    this.issued.set(`${projectId}\u0000${cursor}`, { issuedAt: now, lastRecord });
  }

  /** The cursor's entry when it is still valid at `now`, else undefined. */
  lookup(projectId: string, cursor: string, now: number, ttlMs: number | null): IssuedCursor | undefined {
    const entry = this.issued.get(`${projectId}\u0000${cursor}`);
    if (!entry) return undefined;
    if (ttlMs !== null && now - entry.issuedAt > ttlMs) return undefined;
    return entry;
  }

  expireAll(): void {
    this.issued.clear();
  }
}
