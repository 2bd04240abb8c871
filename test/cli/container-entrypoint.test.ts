// The container image's entrypoint (Dockerfile ENTRYPOINT) starts the CLI: the Node flags it passes
// for memory (docs/sync.md, Memory and threads) are ones this Node accepts on its command line, so
// a typo or a flag Node drops fails here, not as a container that never starts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv } from '../helpers/cli.js';

const DOCKERFILE = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');

describe('the container entrypoint', () => {
  it('is node with memory flags and the CLI; it runs a command', () => {
    const line = /^ENTRYPOINT (\[.*\])$/m.exec(DOCKERFILE);
    expect(line, 'an exec-form ENTRYPOINT').not.toBeNull();
    const argv = JSON.parse(line![1]!) as string[];
    expect(argv[0]).toBe('node');
    expect(argv.at(-1)).toBe('/app/bin/docs-etl.js');
    const flags = argv.slice(1, -1);
    expect(flags).toEqual(expect.arrayContaining(['--optimize-for-size', '--max-semi-space-size=1']));
    const r = spawnSync(process.execPath, [...flags, BIN, '--version'], { env: cliEnv({}), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
