// Every API request per presented key: arrival time, final status and path. Keys stay inside
// this map (tests read their own key's log); they are never logged or serialized elsewhere.

export interface LoggedRequest {
  at: number;
  /** Final HTTP status; 0 when the connection was reset without a response. */
  status: number;
  path: string;
}

export class RequestLog {
  private readonly byKey = new Map<string, LoggedRequest[]>();

  /** Records an arrival; the caller fills in `status` when the response is decided. */
  record(key: string, at: number, path: string): LoggedRequest {
    const entry: LoggedRequest = { at, status: 0, path };
    const list = this.byKey.get(key) ?? [];
    list.push(entry);
    this.byKey.set(key, list);
    return entry;
  }

  list(key: string): LoggedRequest[] {
    return (this.byKey.get(key) ?? []).map((e) => ({ ...e }));
  }
}
