// Node 22 LTS (issue 34 item 5): package.json's engines.node is the one home of the minimum; doctor's
// versions check and the CLI's start-up warning follow it. On Debian's Node 20 (the machines' own
// /usr/bin/node, when it is 20) the CLI still runs, with one warning line, and doctor fails the check.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkVersions } from '../../src/tools/doctor/local-checks.js';
import { minNodeVersion, unsupportedNode } from '../../src/tools/doctor/node-support.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const PKG = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string; engines: { node: string } };
const NODE_20_LINE = 'Node 20 is out of support since April 2026; docs-etl needs Node 22 LTS';

/** Debian's Node 20 on this machine, if it has one (CI's hosts do; the image does not). */
function node20(): string | undefined {
  try {
    return execFileSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).startsWith('v20.') ? '/usr/bin/node' : undefined;
  } catch {
    return undefined;
  }
}
const NODE20 = node20();

describe('the supported Node versions', () => {
  it('the minimum is package.json\'s engines.node: Node 22', () => {
    expect(PKG.engines.node).toBe('>=22');
    expect(minNodeVersion()).toBe('22');
    expect(minNodeVersion('>=22.12')).toBe('22.12');
    expect(() => minNodeVersion('*')).toThrow(/names no version/);
  });

  it('Node 20 gets the out-of-support line, an older one the minimum, 22 and later nothing', () => {
    expect(unsupportedNode('20.19.2')).toBe(NODE_20_LINE);
    expect(unsupportedNode('18.20.4')).toBe('Node 18 is older than 22; docs-etl needs Node 22 LTS');
    expect(unsupportedNode('22.0.0')).toBeUndefined();
    expect(unsupportedNode('24.1.0')).toBeUndefined();
  });

  it('doctor\'s versions check passes on the Node running the suite (22) and fails below engines', async () => {
    expect(process.versions.node.split('.')[0]).toBe('22');
    expect((await checkVersions(PKG.version, minNodeVersion())).status).toBe('ok');
    const below = await checkVersions(PKG.version, '99');
    expect(below.status).toBe('fail');
    expect(below.detail).toMatch(/Node \d+ is older than 99; docs-etl needs Node 99 LTS$/);
    expect(below.fix).toBe('install Node 99 LTS or later');
  }, 60_000);
});

describe.skipIf(!NODE20)('on Debian\'s Node 20', () => {
  const run = (args: string[], cwd: string) => spawnSync(NODE20!, [BIN, ...args], { cwd, env: cliEnv({ LOG_LEVEL: 'warn' }), encoding: 'utf8', timeout: 60_000 });

  it('the CLI runs with one warning line; doctor marks the versions check ✗ with the line and the fix', () => {
    const tmp = tempDir('docs-etl-node20-');
    try {
      const v = run(['--version'], tmp.dir);
      expect(v.status).toBe(0);
      expect(v.stdout.trim()).toBe(PKG.version);
      expect(v.stderr).toMatch(new RegExp(`^docs-etl: warning: running on node 20\\.\\d+\\.\\d+: ${NODE_20_LINE}\\n$`));
      const d = run(['doctor', '--warehouse', `${tmp.dir}/w.duckdb`], tmp.dir);
      expect(d.status).toBe(1);
      const line = d.stdout.split('\n').find((l) => l.includes(' versions'));
      expect(line).toMatch(new RegExp(`^✗ versions: node 20\\.\\d+\\.\\d+, docs-etl ${PKG.version}, DuckDB v[\\d.]+: ${NODE_20_LINE} → fix: install Node 22 LTS or later$`));
    } finally {
      tmp.cleanup();
    }
  }, 120_000);
});
