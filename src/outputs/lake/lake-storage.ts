// Where the lake's files go: a local directory or an S3-compatible bucket. The exporter writes each
// file locally with DuckDB (no httpfs here), then hands it over; the manifest, written last through
// writeText, is the commit point. Keys are lake-relative and '/'-separated.

export interface StoredObject {
  key: string;
  bytes: number;
}

export interface LakeStorage {
  /** Where the lake is, for messages and the summary (never credentials): a directory or s3://bucket/prefix. */
  readonly location: string;
  /**
   * true: put() replaces a key in one step (a local rename), so a partition keeps one stable file
   * name. false (object storage): every upload gets a new key, never overwritten in place.
   */
  readonly replacesInPlace: boolean;
  /** Takes the lake's lock (one export at a time); resolves to its release. */
  lock(now: Date): Promise<() => Promise<void>>;
  /**
   * Object storage, whose lock is advisory: checks the lock taken by lock() is still this export's
   * and renews it, or throws a FatalError (another export took it over). Called before every
   * manifest write and before deleting anything. Absent where the lock is exclusive (local disk).
   */
  confirmLock?(now: Date): Promise<void>;
  /**
   * Every object under the given top-level directories, with its size. Leftovers of an interrupted
   * run that are never data (local temp files) are removed on the way; returns how many.
   */
  list(tops: readonly string[]): Promise<{ objects: StoredObject[]; tempRemoved: number }>;
  /** A local path where the file destined for `key` is written before put(). */
  stagingPath(key: string, token: string): string;
  /** Publishes the staged file as `key` (the staged file is gone afterwards); returns its size. */
  put(staged: string, key: string): Promise<number>;
  /** A small text object (the manifest), or null when there is none. */
  readText(key: string): Promise<string | null>;
  /** Writes a small text object in one step (the manifest: the commit point). */
  writeText(key: string, text: string, token: string): Promise<void>;
  /** Deletes objects (missing ones are not an error); returns how many existed. */
  delete(keys: readonly string[]): Promise<number>;
  /** Releases local resources (staging directory, connections). */
  close(): Promise<void>;
}
