// What every hostile test needs: a small misbehaving HTTP server of its own on 127.0.0.1 that
// records each request, the real CLI as a child process measured (time, peak memory), and the
// checks of the user-visible outcome (one clean line, no key anywhere).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { BIN, cliEnv, type CliResult } from '../helpers/cli.js';

export interface Seen {
  at: number;
  method: string;
  path: string;
  auth?: string;
}

export interface Hostile {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A server answering request number `n` (0-based) with `handle`. */
export async function hostileServer(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<Hostile> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ at: Date.now(), method: req.method ?? '', path: req.url ?? '', auth: req.headers.authorization });
    handle(req, res, seen.length - 1);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** Valid assistant turns (one per conversation), `n` of them, ids starting with `prefix`. */
export function turns(n: number, prefix: string, extra: Record<string, unknown> = {}): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(4, '0')}`, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    query: `question ${i}`, response: 'answer', sources: [], resolutionStatus: 'answered', queryCategory: null, pageUrl: null, ...extra,
  }));
}

/**
 * A hostile server answers every window alike; `--from` half an hour ago makes the sync read one
 * window (its head), so the requests a test counts are the ones it scripted.
 */
export const oneWindow = (): string[] => ['--from', new Date(Date.now() - 30 * 60_000).toISOString()];

export function page(conversations: unknown[], nextCursor: string | null): unknown {
  return { conversations, nextCursor, hasMore: nextCursor !== null };
}

export interface Measured extends CliResult {
  ms: number;
  /** Date.now() when the process had exited. */
  endedAt: number;
  /** Peak resident set of the CLI process, kB (VmHWM at exit). */
  peakKb: number;
  pid: number;
}

export const PRELOAD = fileURLToPath(new URL('./peak-memory.mjs', import.meta.url));

/** The built CLI as a child process; `during` runs once it started (e.g. to send signals), seeing its stderr so far. */
export async function runMeasured(args: string[], env: Record<string, string>, peakFile: string,
  during?: (pid: number, stderr: () => string) => Promise<void>): Promise<Measured> {
  mkdirSync(dirname(peakFile), { recursive: true });
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', PRELOAD, BIN, ...args], {
    env: cliEnv({ HOSTILE_PEAK_FILE: peakFile, ...env }), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, signal) => r({ code, signal })));
  await during?.(child.pid!, () => stderr);
  const { code, signal } = await done;
  const peakKb = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) : NaN;
  return { code, signal, stdout, stderr, ms: Date.now() - t0, endedAt: Date.now(), peakKb, pid: child.pid! };
}

/** The lines of stderr that are not JSON log lines. */
export function plainLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.trim() && !l.startsWith('{'));
}

/** One clean error line (no control characters), matching `message`; the JSON logs parse. */
export function expectOneCleanLine(r: CliResult, message: RegExp): void {
  const lines = plainLines(r.stderr);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  for (const l of r.stderr.split('\n').filter((x) => x.startsWith('{'))) expect(() => JSON.parse(l)).not.toThrow();
  // eslint-disable-next-line no-control-regex -- no escape sequence or control character reaches the terminal
  for (const text of [r.stdout, r.stderr]) expect(text.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
}

/** Every file under `dir` (recursively). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The key is nowhere: not printed, not logged, not in any file under `dirs`. */
export function expectKeyAbsent(key: string, r: CliResult, dirs: string[]): void {
  expect(r.stdout).not.toContain(key);
  expect(r.stderr).not.toContain(key);
  for (const f of dirs.flatMap(filesUnder)) expect(readFileSync(f).includes(Buffer.from(key)), f).toBe(false);
}

/** Peak memory of a CLI run stays under 512 MB. */
export function expectBoundedMemory(r: Measured): void {
  expect(r.peakKb, 'peak RSS was not reported').toBeGreaterThan(0);
  expect(r.peakKb).toBeLessThanOrEqual(512 * 1024);
}
