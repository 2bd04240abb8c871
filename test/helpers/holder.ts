// Drives test/fixtures/duckdb-holder.mjs: another program (a BI tool, a notebook) holding a DuckDB
// file open in its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const SCRIPT = fileURLToPath(new URL('../fixtures/duckdb-holder.mjs', import.meta.url));

export interface Holder {
  pid: number;
  query(sql: string): Promise<Record<string, unknown>[]>;
  reopen(): Promise<void>;
  close(): Promise<void>;
}

/** `cwd`: the holder's working directory (a reader started elsewhere than the writer). */
export async function holdDuckDb(path: string, mode: 'ro' | 'rw' = 'ro', cwd?: string): Promise<Holder> {
  const child: ChildProcess = spawn(process.execPath, [SCRIPT, path, mode], { stdio: ['pipe', 'pipe', 'pipe'], cwd });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const next = async (): Promise<Record<string, unknown>> => {
    const r = await lines.next();
    if (r.done) throw new Error(`holder ended: ${stderr}`);
    return JSON.parse(r.value) as Record<string, unknown>;
  };
  const ready = await next();
  const ask = async (cmd: string) => {
    child.stdin!.write(`${cmd}\n`);
    const a = await next();
    if (a.error) throw new Error(String(a.error));
    return a;
  };
  return {
    pid: Number(ready.ready),
    query: async (sql) => (await ask(`q ${sql.replace(/\s+/g, ' ')}`)).rows as Record<string, unknown>[],
    reopen: async () => {
      await ask('reopen');
    },
    close: () => new Promise((resolve) => {
      child.once('close', () => resolve());
      child.stdin!.end();
    }),
  };
}
