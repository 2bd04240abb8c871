// One HTTP exchange, bounded: a total deadline (a trickling body ends at it), a body cap (streamed,
// counted), a stop request with a grace period, and sanitized server text. Real HTTP on 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clampWait, httpText, parseRetryAfter, throwIfRetriable } from '../../src/sync/api/http.js';
import { RequestDeadlineError, ResponseTooLargeError, RetriableError, StoppedError } from '../../src/core/errors.js';

const KEY = 'mint_http_test_key_31337';
let server: Server;
let base: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void;
let closed: number;
beforeEach(async () => {
  closed = 0;
  server = createServer((req, res) => {
    res.on('close', () => closed++);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((r) => {
  server.closeAllConnections();
  server.close(() => r());
}));

/** Headers at once, then one byte every `everyMs`, forever. */
const trickle = (everyMs: number) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const t = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(t));
};

const elapsed = async <T>(p: Promise<T>) => {
  const t0 = Date.now();
  const out = await p.catch((e: unknown) => e);
  return { out, ms: Date.now() - t0 };
};

describe('httpText', () => {
  it('ends a trickling body at the total deadline, as a RequestDeadlineError (not retriable)', async () => {
    handler = trickle(50);
    const { out, ms } = await elapsed(httpText(base, { timeoutMs: 400 }));
    expect(out).toBeInstanceOf(RequestDeadlineError);
    expect((out as Error).message).toBe('no complete response within the request deadline of 400ms (connect, headers and body)');
    expect(ms).toBeGreaterThanOrEqual(390);
    expect(ms).toBeLessThan(800);
  });

  it('ends a server that never answers at the deadline', async () => {
    handler = () => {};
    const { out, ms } = await elapsed(httpText(base, { timeoutMs: 300 }));
    expect(out).toBeInstanceOf(RequestDeadlineError);
    expect(ms).toBeLessThan(700);
  });

  it('refuses a body announced over the cap without reading it, and stops reading an endless one at the cap', async () => {
    handler = (_q, res) => res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end(Buffer.alloc(10 * 1024 * 1024));
    const announced = await httpText(base, { maxBodyBytes: 1024 * 1024, capName: 'THE_CAP' }).catch((e: Error) => e);
    expect(announced).toBeInstanceOf(ResponseTooLargeError);
    expect((announced as Error).message).toBe('the response body is larger than the 1 MiB cap (THE_CAP) (announced 10 MiB); not retried');
    let sent = 0;
    handler = (_q, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => { while (res.write(chunk)) sent += chunk.length; };
      res.on('drain', more);
      more();
    };
    const endless = await httpText(base, { maxBodyBytes: 2 * 1024 * 1024 }).catch((e: Error) => e);
    expect(endless).toBeInstanceOf(ResponseTooLargeError);
    expect((endless as Error).message).toBe('the response body is larger than the 2 MiB cap (more than 2 MiB received); not retried');
    await expect.poll(() => closed).toBe(2);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('a stop request lets a quick response finish, but ends a slow one after the grace period', async () => {
    const stop = new AbortController();
    stop.abort();
    handler = (_q, res) => res.end('{"ok":true}');
    expect((await httpText(base, { stopSignal: stop.signal, stopGraceMs: 5_000 })).text).toBe('{"ok":true}');
    handler = trickle(50);
    const { out, ms } = await elapsed(httpText(base, { timeoutMs: 10_000, stopSignal: stop.signal, stopGraceMs: 200 }));
    expect(out).toBeInstanceOf(StoppedError);
    expect((out as Error).message).toBe('stopped on request: the request in flight did not finish within 200ms of the stop request');
    expect(ms).toBeLessThan(1_000);
  });

  it('a cancel signal ends the request at once', async () => {
    handler = trickle(50);
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 100);
    const { out, ms } = await elapsed(httpText(base, { timeoutMs: 10_000, signal: cancel.signal }));
    expect(out).toBeInstanceOf(StoppedError);
    expect(ms).toBeLessThan(1_000);
  });

  it('a 5xx body is one clean line without the key; a cut-off body is retriable', async () => {
    handler = (req, res) => res.writeHead(502).end(`\u001b[2J\u001b[31mbad gateway\nAuthorization: ${req.headers.authorization}`);
    const res = await httpText(base, { headers: { authorization: `Bearer ${KEY}` } });
    const err = (() => {
      try {
        throwIfRetriable(res, new Date(), [KEY]);
      } catch (e) {
        return e as RetriableError;
      }
    })();
    expect(err?.message).toBe('server error (502): bad gateway Authorization: Bearer [redacted]');
    handler = (_q, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":', () => res.destroy());
    };
    expect(await httpText(base).catch((e: Error) => e)).toBeInstanceOf(RetriableError);
  });
});

describe('Retry-After', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('reads seconds and HTTP dates; clampWait bounds absurd, zero, infinite and missing values', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(clampWait(parseRetryAfter('999999999', now), 1_000, 3_600_000)).toBe(3_600_000);
    expect(clampWait(parseRetryAfter('9'.repeat(400), now), 1_000, 3_600_000)).toBe(3_600_000);
    expect(clampWait(parseRetryAfter('0', now), 1_000, 3_600_000)).toBe(1_000);
    expect(clampWait(undefined, 1_000, 3_600_000)).toBe(1_000);
  });
});
