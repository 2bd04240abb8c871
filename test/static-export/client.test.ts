// The API client's classification and retries, against a scripted HTTP server on 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FatalError, RetriableError } from '../../src/core/errors.js';
import { createStaticExportApi, isNotReady, normalizeBaseUrl } from '../../src/static-export/client.js';
import { FakeClock, KEY, capturedLogger } from './helpers.js';

type Reply = (req: IncomingMessage, res: ServerResponse) => void;
const JOB = { jobId: 'se_0123456789abcdef', status: 'running', progress: 40, pageCount: 12, createdAt: '2026-11-01T09:00:00Z', updatedAt: '2026-11-01T09:00:05Z' };

let server: Server;
let base: string;
let script: Reply[];
let seen: { method?: string; url?: string; auth?: string }[];
beforeEach(async () => {
  script = [];
  seen = [];
  server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, auth: req.headers.authorization });
    const next = script.shift() ?? ((_q, s) => s.writeHead(500).end('script exhausted'));
    next(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((r) => {
  server.close(() => r());
  server.closeAllConnections();
}));

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => (_q, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

function api(clock = new FakeClock(), attempts = 4) {
  const log = capturedLogger();
  return { log, clock, api: createStaticExportApi({ baseUrl: `${base}/v1/`, apiKey: KEY, clock, logger: log.logger, retry: { attempts, baseMs: 100, maxMs: 1_000 }, random: () => 0 }) };
}

describe('static export API client', () => {
  it('sends the bearer key to the API and validates the job', async () => {
    script.push(json(202, JOB));
    const { api: c } = api();
    expect(await c.startJob({ domain: 'docs.example.com', paths: ['index'] })).toMatchObject({ jobId: JOB.jobId, status: 'running' });
    expect(seen[0]).toEqual({ method: 'POST', url: '/v1/static-export/jobs', auth: `Bearer ${KEY}` });
  });

  it('retries 5xx, resets and unreadable bodies with backoff, then succeeds', async () => {
    script.push(json(503, { error: 'busy' }), (req) => req.socket.destroy(), (_q, res) => res.writeHead(200).end('{"jobId": '), json(200, JOB));
    const { api: c, clock, log } = api();
    const t0 = clock.ms;
    expect((await c.getJob(JOB.jobId)).pageCount).toBe(12);
    expect(seen).toHaveLength(4);
    // Equal jitter with random() = 0: half of 100, 200, 400 ms.
    expect(clock.ms - t0).toBe(50 + 100 + 200);
    expect(log.lines().filter((l) => l.includes('retrying'))).toHaveLength(3);
  });

  it('honours Retry-After on 429', async () => {
    script.push(json(429, { error: 'slow down' }, { 'retry-after': '7' }), json(200, JOB));
    const { api: c, clock } = api();
    const t0 = clock.ms;
    await c.getJob(JOB.jobId);
    expect(clock.ms - t0).toBe(7_000);
  });

  it('gives up after the bounded attempts with a RetriableError', async () => {
    for (let i = 0; i < 3; i++) script.push(json(500, { error: 'Server error' }));
    const { api: c } = api(new FakeClock(), 3);
    const err = await c.getJob(JOB.jobId).catch((e: Error) => e);
    expect(err).toBeInstanceOf(RetriableError);
    expect(seen).toHaveLength(3);
  });

  it('classifies 401, 403, 404, 400 and a contract mismatch as fatal, without retrying or echoing the key', async () => {
    script.push(json(401, { error: 'Authentication failed.' }));
    script.push(json(403, { error: 'Static export is not enabled for this organization.' }));
    script.push(json(404, { error: 'No job exists with the provided ID.' }));
    script.push(json(400, { error: `bad domain ${KEY}` }));
    script.push(json(200, { ...JOB, status: 'exploded' }));
    const { api: c } = api();
    const errs = [
      await c.getJob('se_1').catch((e: Error) => e),
      await c.startJob({ domain: 'docs.example.com' }).catch((e: Error) => e),
      await c.requestBundle('se_2').catch((e: Error) => e),
      await c.startJob({ domain: 'docs.example.com' }).catch((e: Error) => e),
      await c.getJob('se_3').catch((e: Error) => e),
    ];
    expect(errs.every((e) => e instanceof FatalError)).toBe(true);
    expect(errs.map((e) => (e as FatalError).message)).toEqual([
      'the API key was rejected (401): check DOCS_API_KEY',
      'static export is not enabled for this organization (403): it requires an Enterprise plan; contact sales to enable it',
      'unknown job id se_2 (404): no static export job with this id exists for this organization',
      'the API rejected the export request (400): bad domain [redacted]',
      expect.stringMatching(/^the job status response does not match the API contract: status/),
    ]);
    expect(seen).toHaveLength(5);
  });

  it('409 on the bundle endpoint is "not ready", with the API message', async () => {
    script.push(json(409, { error: 'The job has not finished yet, so a bundle cannot be generated.' }));
    const { api: c } = api();
    const r = await c.requestBundle(JOB.jobId);
    expect(isNotReady(r) && r.message).toBe('The job has not finished yet, so a bundle cannot be generated.');
  });

  it('accepts a base URL with or without /v1 and trailing slashes', () => {
    expect(normalizeBaseUrl('https://api.mintlify.com/v1/')).toBe('https://api.mintlify.com');
    expect(normalizeBaseUrl('https://api.mintlify.com')).toBe('https://api.mintlify.com');
    expect(normalizeBaseUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010');
  });
});
