// Skimming a page whose one record is over the body cap (issue 33, item 7). The body is streamed
// past the cap without being kept: only its envelope (every top-level field but the records list,
// which becomes `[]`), the number of records in that list and the head of their raw text are kept,
// so the stream can move past the record (its cursor or offset) and quarantine it by its size and
// head. A byte scanner, not a parser: JSON's structural characters are ASCII, and strings (with
// their escapes) are tracked exactly, so nothing inside a record can look like the envelope.
import { HEAD_BYTES, type Skimmed } from '../pipeline/page-fetch.js';

/** The envelope (the top-level fields besides the records) is small; a larger one is not a page. */
const MAX_ENVELOPE_BYTES = 64 * 1024;
/** How far past the cap a single record is skimmed (the request deadline bounds the time). */
export const MAX_SKIM_BYTES = 1024 * 1024 * 1024;

const [QUOTE, BACKSLASH, LBRACE, RBRACE, LBRACKET, RBRACKET, COMMA, COLON] = [0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a];
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export class JsonSkimmer {
  private size = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private key: number[] | null = null;
  private lastKey = '';
  private recordsNext = false;
  private skipping = false;
  private sawRecord = false;
  private records = 0;
  private readonly kept: number[] = [];
  private overflow = false;
  private readonly head: number[] = [];

  constructor(private readonly recordsField: string) {}

  feed(chunk: Buffer): void {
    for (const b of chunk) this.byte(b);
    this.size += chunk.length;
  }

  /**
   * A page asked for with `limit=1` whose list holds a second record is not the page asked for (an
   * endless or hostile body): skimming it further cannot isolate one record, so the read stops.
   */
  holdsMoreThanOne(): boolean {
    return this.records > 1;
  }

  result(): Skimmed {
    let envelope: Record<string, unknown> | null = null;
    if (!this.overflow) {
      try {
        const v = JSON.parse(Buffer.from(this.kept).toString('utf8')) as unknown;
        if (v && typeof v === 'object' && !Array.isArray(v)) envelope = v as Record<string, unknown>;
      } catch {
        envelope = null;
      }
    }
    return { size: this.size, records: this.records, head: Buffer.from(this.head).toString('utf8'), envelope };
  }

  private byte(b: number): void {
    if (this.skipping) return this.skip(b);
    this.keep(b);
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.key) this.lastKey = Buffer.from(this.key).toString('utf8');
        this.key = null;
      } else if (this.key && this.key.length < 256) this.key.push(b);
      return;
    }
    if (this.recordsNext && !isSpace(b)) {
      this.recordsNext = false;
      if (b === LBRACKET) {
        // The records list is kept as `[]`; its content is counted and its head kept.
        this.keep(RBRACKET);
        this.depth++;
        this.skipping = true;
        return;
      }
    }
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.expectKey) this.key = [];
    } else if (b === LBRACE || b === LBRACKET) {
      this.depth++;
      if (this.depth === 1) this.expectKey = b === LBRACE;
    } else if (b === RBRACE || b === RBRACKET) this.depth--;
    else if (this.depth === 1 && b === COMMA) this.expectKey = true;
    else if (this.depth === 1 && b === COLON) {
      this.expectKey = false;
      this.recordsNext = this.lastKey === this.recordsField;
    }
  }

  /** Inside the records list: count its elements, keep its head, find its end. */
  private skip(b: number): void {
    if (!this.inString && this.depth === 2 && (b === RBRACKET || b === RBRACE)) {
      this.depth--;
      this.skipping = false;
      return;
    }
    if (this.head.length < HEAD_BYTES) this.head.push(b);
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) this.inString = false;
      return;
    }
    if (isSpace(b)) return;
    if (this.depth === 2 && b !== RBRACKET && b !== COMMA && !this.sawRecord) {
      this.sawRecord = true;
      this.records++;
    }
    if (b === QUOTE) this.inString = true;
    else if (b === LBRACE || b === LBRACKET) this.depth++;
    else if (b === RBRACE || b === RBRACKET) this.depth--;
    else if (this.depth === 2 && b === COMMA) this.sawRecord = false;
  }

  private keep(b: number): void {
    if (this.kept.length >= MAX_ENVELOPE_BYTES) this.overflow = true;
    else this.kept.push(b);
  }
}
