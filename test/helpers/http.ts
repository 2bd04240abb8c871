// Raw HTTP calls to a server under test (the sandbox), over real HTTP: status, headers, text and,
// when the body is JSON, the parsed body.

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body (undefined when it is not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallOptions {
  /** Bearer key; null sends no Authorization header. */
  key: string | null;
  method?: string;
  body?: unknown;
  /** Sent as is (a malformed body); wins over `body`. */
  rawBody?: string;
}

export async function httpCall(base: string, path: string, o: CallOptions): Promise<Reply> {
  const headers: Record<string, string> = o.key === null ? {} : { authorization: `Bearer ${o.key}` };
  if (o.body !== undefined || o.rawBody !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method: o.method ?? 'GET', headers, body: o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
