// Debian's redis-server (/usr/bin/redis-server) as a real process for tests: 127.0.0.1, a free
// port, no RDB snapshots, its files in a temp dir; append-only persistence on request (restart test).
// `.ci/run` installs it; locally, a missing binary makes the tests skip with a message saying so.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const HAVE_REDIS = existsSync(REDIS_SERVER);
if (!HAVE_REDIS) console.warn(`${REDIS_SERVER} is missing: the Redis budget tests are skipped (apt-get install redis-server; .ci/run installs it)`);

export interface RedisProcess {
  port: number;
  url: string;
  /** SIGTERM (a clean shutdown: the append-only file is flushed) and wait for the exit. */
  stop(): Promise<void>;
  /** Stop, then start again on the same port and dir. */
  restart(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function startRedis(dir: string, o: { appendOnly?: boolean; password?: string } = {}): Promise<RedisProcess> {
  const port = await freePort();
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--dir', dir, '--appendonly', o.appendOnly ? 'yes' : 'no'];
  if (o.password) args.push('--requirepass', o.password);
  let child: ChildProcess = await launch(args);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    restart: async () => {
      await stop();
      child = await launch(args);
    },
  };
}

/** Starts redis-server and resolves once it accepts connections (its own log line says so). */
function launch(args: string[]): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s: ${out}`)), 10_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
}
