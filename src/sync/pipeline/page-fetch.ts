// What a fetch of one page gives the extractor: the contract between the api stage, which
// implements it (analytics-client.ts, http.ts, json-skim.ts), and the extract stage, which pages
// through it with the client the run passes in. Here, below both stages, so neither imports the
// other (docs/design.md, the layers).
import { ResponseTooLargeError } from '../../core/errors.js';

export interface FetchedJson {
  /** The parsed body. */
  json: unknown;
  /** The body as received (landed verbatim, the key scrubbed if a server echoed it), as bytes. */
  body: Buffer;
  /** Requests this response cost (retries and 429s included). */
  requests: number;
}

export interface GetOptions {
  signal?: AbortSignal;
  onRequest?: () => void;
  /**
   * Checks a parsed 200 body; a RetriableError it throws (a body that is not a page of the
   * endpoint: a broken response) is retried like a 5xx, within the same retry policy.
   */
  check?: (json: unknown, body: Buffer) => void;
  /** A page of one record: over the cap, its body is skimmed (http.ts, RecordTooLargeError); the records field. */
  skimRecords?: string;
}

export interface AnalyticsClient {
  /**
   * One GET of `endpoint` (its {projectId} substituted) with these query parameters. `onRequest`
   * hears of every request sent, so a run counts the ones that failed too.
   */
  get(endpoint: string, projectId: string, params: Record<string, string>, o?: GetOptions): Promise<FetchedJson>;
}

/** The head of an over-cap record kept for `quarantine`. */
export const HEAD_BYTES = 4096;

export interface Skimmed {
  /** Bytes of the whole body. */
  size: number;
  /** Records in the skipped list. */
  records: number;
  /** The first HEAD_BYTES of the list's text (the record's head), UTF-8 decoded. */
  head: string;
  /** The body with its records list emptied, parsed; null when that is not a JSON object. */
  envelope: Record<string, unknown> | null;
}

/** A page over the cap whose body was skimmed: its record can be quarantined and the stream move on. */
export class RecordTooLargeError extends ResponseTooLargeError {
  override name = 'RecordTooLargeError';
  constructor(message: string, status: number | undefined, readonly skimmed: Skimmed) {
    super(message, status);
  }
}
