// `docs-etl sandbox` as a child process, for the budget measurement: its big history lives in its
// own memory, and the bench reads its request log over the test-only route.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';
import { PACKAGE_ROOT } from '../../src/core/paths.js';
import type { LoggedRequest } from '../../src/tools/sandbox/index.js';

export interface SandboxProcess {
  url: string;
  requestLog(apiKey: string): Promise<LoggedRequest[]>;
  /** One small request, so the sandbox builds the project's history now (it does so on first use). */
  warmUp(apiKey: string, projectId: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSandboxProcess(args: string[]): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'docs-etl.js'), 'sandbox', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await listeningUrl(child);
  return {
    url,
    warmUp: async (apiKey, projectId) => {
      const res = await request(`${url}/v1/analytics/${encodeURIComponent(projectId)}/assistant?limit=1`, {
        headers: { authorization: `Bearer ${apiKey}` }, reset: true, headersTimeout: 600_000,
      });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`sandbox warm-up: ${res.statusCode}`);
    },
    requestLog: async (apiKey) => {
      // A fresh connection each time: the sandbox may sit busy (building its history) past the
      // keep-alive timeout, and a reused socket it closed meanwhile would read as a reset.
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await request(`${url}/__sandbox/requests?key=${encodeURIComponent(apiKey)}`, { reset: true });
          return ((await res.body.json()) as { requests: LoggedRequest[] }).requests;
        } catch (err) {
          if (attempt >= 5) throw err;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.once('close', (code) => reject(new Error(`sandbox exited (code ${code}) before listening: ${err}`)));
    child.once('error', reject);
  });
}
