// The container image's entrypoint (Dockerfile ENTRYPOINT) starts the CLI: the Node flags it passes
// for memory (docs/sync.md, Memory and threads) are ones this Node accepts on its command line, so
// a typo or a flag Node drops fails here, not as a container that never starts. The bench runs a
// full sync with the same setup (test/bench/container-node.ts).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { containerNode } from '../bench/container-node.js';
import { BIN, cliEnv } from '../helpers/cli.js';

describe('the container entrypoint', () => {
  it('is node with memory flags and the CLI; the CLI runs with them and the image\'s glibc setting', () => {
    const node = containerNode();
    expect(node.script).toBe('/app/bin/docs-etl.js');
    expect(node.flags).toEqual(expect.arrayContaining(['--optimize-for-size', '--max-semi-space-size=1']));
    expect(node.env).toEqual({ MALLOC_ARENA_MAX: '2' });
    const r = spawnSync(process.execPath, [...node.flags, BIN, '--version'], { env: cliEnv(node.env), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
