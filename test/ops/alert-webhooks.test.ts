// Issue 36: alerts over real processes. A webhook sink on 127.0.0.1 and syncs that succeed, fail (the
// API down, then the key rejected), and succeed: exactly one `failed` then one `recovered`; a sink
// that refuses connections and one that never answers leave the sync's own exit code, within the
// delivery deadline. The webhook URL appears in no output or table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { refusingUrl, startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.js';

const KEY = 'mint_ops_alert_key_0001';
const WRONG_KEY = 'mint_ops_alert_key_9999';
const ONE_WINDOW = ['--max-window', '1m'];
const tmp = tempDir('docs-etl-alerts-');
let sb: Sandbox | undefined;
const sinks: WebhookSink[] = [];
afterAll(async () => {
  await sb?.close();
  for (const s of sinks) await s.close();
  tmp.cleanup();
});

it('up, down, key rejected, up: one failed then one recovered; a refusing and a silent sink leave the exit code and the deadline', { timeout: 480_000 }, async () => {
  const options = defaultSandboxOptions({ apiKeys: [KEY], conversations: 200, historyDays: 3, seed: 361 });
  sb = await startSandbox(options);
  const port = Number(new URL(sb.url).port);
  const baseUrl = sb.url;
  const sink = await startWebhookSink();
  const hanging = await startWebhookSink('hang');
  sinks.push(sink, hanging);
  const warehouse = join(tmp.dir, 'w.duckdb');
  const config = join(tmp.dir, 'config.json');
  writeFileSync(config, JSON.stringify({
    projects: [{ id: 'demo', apiKeyEnv: 'DOCS_API_KEY' }], rateLimit: '1000/1h',
    alerts: [{ urlEnv: 'OPS_HOOK_URL', format: 'json', on: ['failed', 'recovered'] }], alertDeadline: '3s',
  }));
  // With the API down, each window's read fails after its retries and is bisected (retried again)
  // down to the shortest window: --max-window 1m makes that one window, so a down run takes one
  // window's retries (about 10 s), not six windows' (about 60 s). Alerts do not depend on windows
  // nor on why a run failed: the other failed runs are a rejected key (401, no retries: at once).
  // The alert's state and deliveries are the point of the first three syncs: they run through the
  // CLI's own main in-process (the same command, output and exit code, without a Node start each).
  // The last three are real processes: a delivery that fails or never answers must not hold the
  // process's exit, and the deadline is measured against a real run (up2).
  const sync = async (hook: string, extra: string[] = [], key = KEY, run: typeof runCli = runCli) => {
    const started = Date.now();
    const r = await run(['sync', '--warehouse', warehouse, '--config', config, ...extra], cliEnv({ DOCS_API_BASE_URL: baseUrl, DOCS_API_KEY: key, OPS_HOOK_URL: hook }));
    const out = r.stdout + r.stderr;
    for (const secret of [KEY, WRONG_KEY, sink.url, hanging.url, 's3cr3t-token', 'refused-token']) expect(out).not.toContain(secret);
    return { ...r, ms: Date.now() - started, out };
  };
  const down = async () => {
    await sb!.close();
    sb = undefined;
  };

  const up1 = await sync(sink.url, [], KEY, runMain);
  expect(up1.code, up1.stderr).toBe(0);
  await down();
  const down1 = await sync(sink.url, ONE_WINDOW, KEY, runMain);
  expect(down1.code).toBe(1);
  sb = await startSandbox({ ...options, port });
  // Failing again, for another reason: still the one `failed` alert.
  const down2 = await sync(sink.url, [], WRONG_KEY, runMain);
  expect(down2.code).toBe(1);
  expect(down2.out).toMatch(/rejected \(401\)/);
  const up2 = await sync(sink.url);
  expect(up2.code, up2.stderr).toBe(0);
  const events = sink.bodies.map((b) => {
    const a = b as { event: string; project: string; pipeline: string; cleared: string | null };
    return `${a.event} ${a.project}/${a.pipeline}${a.cleared ? ` (${a.cleared})` : ''}`;
  });
  expect(events).toEqual(['failed demo/assistant_conversations', 'recovered demo/assistant_conversations (failed)']);
  expect(sink.bodies[0]).toMatchObject({ reason: expect.stringMatching(/^last run failed/), status_line: expect.stringMatching(/^unhealthy: demo\/assistant_conversations: last run failed/) });
  for (const r of [up1, down1, down2, up2]) expect(r.out).not.toMatch(/alerts not delivered/);

  // A sink that refuses connections: the failed run still exits 1, the delivery gives up in time,
  // and says so once, naming the variable only.
  const refused = await sync(await refusingUrl(), [], WRONG_KEY);
  expect(refused.code).toBe(1);
  expect(refused.out.match(/alerts not delivered/g)).toHaveLength(1);
  expect(refused.out).toMatch(/OPS_HOOK_URL/);
  // A sink that never answers: the recovered run exits 0, at most the 3 s deadline later than a run takes.
  const slow = await sync(hanging.url);
  expect(slow.code, slow.stderr).toBe(0);
  expect(slow.out.match(/alerts not delivered/g)).toHaveLength(1);
  expect(slow.ms - up2.ms).toBeLessThan(3000 + 10_000);
  expect(slow.ms).toBeGreaterThanOrEqual(3000);
  expect(sink.bodies).toHaveLength(2);

  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    for (const t of ['alert_state', 'api_responses', 'sync_runs']) {
      const dump = JSON.stringify((await wh.conn.runAndReadAll(`SELECT * FROM ${t}`)).getRowObjectsJS(), (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      for (const secret of [KEY, WRONG_KEY, 's3cr3t-token', 'refused-token', '/hook/']) expect(dump).not.toContain(secret);
    }
  } finally {
    wh.close();
  }
});
