// The launcher (bin/docs-etl.js) starts Node with the memory settings of its shebang, the one place
// they are given (the container's entrypoint is the launcher): glibc's arena count and V8's flags,
// with which a full sync at 4M turns peaks about 100 MB lower (docs/performance.md, ninth round).
// The doctor test shows what the process sees (`✓ node` through the launcher, `! node` without
// it); here, that the shebang is made of exactly what src/core/node-flags.ts names (the bench runs
// its syncs with those lists), and that the launcher runs the CLI with them.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAUNCHER_SHEBANG, MEMORY_FLAGS, memorySettingsOn } from '../../src/core/node-flags.js';
import { BIN, cliEnv } from '../helpers/cli.js';

describe('the launcher', () => {
  it('is executable and its shebang is env -S with the memory variables, node and the memory flags', () => {
    accessSync(BIN, constants.X_OK);
    expect(readFileSync(BIN, 'utf8').split('\n')[0]).toBe(LAUNCHER_SHEBANG);
    expect(LAUNCHER_SHEBANG).toBe('#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --optimize-for-size --max-semi-space-size=1');
  });

  it('started as the installed CLI is, runs it (--version) with Node accepting the flags', () => {
    const r = spawnSync(BIN, ['--version'], { env: cliEnv({}), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('memorySettingsOn wants every flag and every variable set', () => {
    expect(memorySettingsOn([...MEMORY_FLAGS], { MALLOC_ARENA_MAX: '2' })).toBe(true);
    expect(memorySettingsOn([...MEMORY_FLAGS], { MALLOC_ARENA_MAX: '4' })).toBe(true);
    expect(memorySettingsOn([...MEMORY_FLAGS], {})).toBe(false);
    expect(memorySettingsOn(['--max-semi-space-size=1'], { MALLOC_ARENA_MAX: '2' })).toBe(false);
  });
});
