// The launcher (bin/docs-etl.js) starts Node with V8's memory flags from its shebang, the one place
// they are given (the container's entrypoint is the launcher): a full sync at 4M turns peaks about
// 100 MB lower with them (docs/performance.md, ninth round). The doctor test shows what the
// process sees (`✓ node` through the launcher, `! node` without it); here, that the shebang carries
// exactly the flags src/core/node-flags.ts names and that the launcher runs the CLI with them.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEMORY_FLAGS, memoryFlagsOn } from '../../src/core/node-flags.js';
import { BIN, cliEnv } from '../helpers/cli.js';

describe('the launcher', () => {
  it('is executable and its shebang is env -S node with the memory flags', () => {
    accessSync(BIN, constants.X_OK);
    const shebang = readFileSync(BIN, 'utf8').split('\n')[0]!;
    expect(shebang).toBe(`#!/usr/bin/env -S node ${MEMORY_FLAGS.join(' ')}`);
  });

  it('started as the installed CLI is, runs it (--version) with Node accepting the flags', () => {
    const r = spawnSync(BIN, ['--version'], { env: cliEnv({}), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('memoryFlagsOn wants every flag', () => {
    expect(memoryFlagsOn([...MEMORY_FLAGS])).toBe(true);
    expect(memoryFlagsOn(['--max-semi-space-size=1'])).toBe(false);
    expect(memoryFlagsOn([])).toBe(false);
  });
});
