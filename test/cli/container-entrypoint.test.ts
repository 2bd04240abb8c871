// The container image's entrypoint (Dockerfile ENTRYPOINT) is the launcher, whose shebang sets the
// memory settings (docs/sync.md, Memory and threads): the flags are ones this Node accepts, so a
// typo or a flag Node drops fails here, not as a container that never starts. The bench runs a full
// sync with the same setup (test/bench/container-node.ts).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MEMORY_ENV, MEMORY_FLAGS } from '../../src/core/node-flags.js';
import { containerNode } from '../bench/container-node.js';
import { BIN, cliEnv } from '../helpers/cli.js';

describe('the container entrypoint', () => {
  it('is the launcher, with its memory settings; the CLI runs with them', () => {
    const node = containerNode();
    expect(node.script).toBe('/app/bin/docs-etl.js');
    expect(node.flags).toEqual([...MEMORY_FLAGS]);
    expect(node.env).toEqual({ ...MEMORY_ENV });
    const r = spawnSync(BIN, ['--version'], { env: cliEnv(node.env), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('an entrypoint of node and flags gives its own flags', () => {
    const node = containerNode('ENTRYPOINT ["node", "--max-semi-space-size=2", "/app/bin/docs-etl.js"]\nENV MALLOC_ARENA_MAX=4\n', { flags: ['--x'], env: {} });
    expect(node).toEqual({ flags: ['--max-semi-space-size=2'], script: '/app/bin/docs-etl.js', env: { MALLOC_ARENA_MAX: '4' } });
    // The launcher's assignments are set over the image's environment.
    expect(containerNode('ENTRYPOINT ["/app/bin/docs-etl.js"]\nENV MALLOC_ARENA_MAX=4\n', { flags: ['--x'], env: { MALLOC_ARENA_MAX: '2' } }).env).toEqual({ MALLOC_ARENA_MAX: '2' });
  });
});
