// Self-healing at the body cap (issue 33, item 7): a page over the cap is read again with half the
// `limit`, down to one record; a single record still over the cap is quarantined by its size and
// the head of its text (the body skimmed past the cap, src/sync/api/json-skim.ts), and the stream
// moves on from the cursor or offset after it. After a page that fits, the limit doubles back
// towards the endpoint's own, so a healthy stretch is read at full pages again within a few
// requests (about 2·log2(limit) requests per over-cap record).
import { HEAD_BYTES, type FetchedJson, type RecordTooLargeError } from '../pipeline/page-fetch.js';
import type { PipelineDefinition } from '../pipeline/definition.js';

export class PageLimit {
  private readonly full: number | undefined;
  /** The `limit` the next request sends (undefined: the endpoint takes none, or no cursor/offset paging). */
  now: number | undefined;
  private failed = 0;

  constructor(p: PipelineDefinition) {
    this.full = p.paging.style === 'cursor' || p.paging.style === 'offset' ? p.paging.limit : undefined;
    this.now = this.full;
  }

  canHalve(): boolean {
    return this.now !== undefined && this.now > 1;
  }

  halve(): void {
    this.now = Math.max(1, Math.floor(this.now! / 2));
    this.failed++;
  }

  isFull(): boolean {
    return this.now === this.full;
  }

  grow(): void {
    if (this.now !== undefined && this.full !== undefined) this.now = Math.min(this.full, this.now * 2);
  }

  /** The requests refused over the cap since the last page (counted with the page that follows them). */
  spent(): number {
    const n = this.failed;
    this.failed = 0;
    return n;
  }
}

/**
 * A page of one record over the cap, as landed: its envelope with the records list empty, and the
 * record quarantined by its size and head (never its whole text). Its cursor or offset comes from
 * the envelope, so the window continues after it.
 */
export function quarantineOversized(err: RecordTooLargeError, p: PipelineDefinition, requests: number): {
  fetched: FetchedJson; oversized: { error: string; raw: unknown };
} {
  const { envelope, size, head } = err.skimmed;
  const json = { ...envelope, ...(p.recordsField ? { [p.recordsField]: [] } : {}) };
  return {
    fetched: { json, body: Buffer.from(JSON.stringify(json), 'utf8'), requests },
    oversized: { error: err.message, raw: { _docs_etl_truncated: true, bytes: size, head_bytes: HEAD_BYTES, head } },
  };
}
