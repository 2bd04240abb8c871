// The download's checks that need no server: the free space where the bundle goes, and the link.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { FatalError } from '../../src/core/errors.js';
import { downloadBundle } from '../../src/static-export/download.js';
import { tempDir } from '../helpers/tmp.js';
import { FakeClock } from './helpers.js';

const tmp = tempDir('se-download-');
afterAll(() => tmp.cleanup());

const options = (over: Partial<Parameters<typeof downloadBundle>[0]>) => ({
  jobId: 'se_1', dir: join(tmp.dir, 'se_1'), link: null, clock: new FakeClock(), logger: silentLogger,
  retry: { attempts: 2, baseMs: 1, maxMs: 1 }, attempts: 2,
  freshLink: async () => ({ jobId: 'se_1', bundleUrl: 'https://storage.invalid/b.tar.gz', sizeBytes: 2 * 1024 ** 3, expiresAt: '2099-01-01T00:00:00Z' }),
  ...over,
});

describe('bundle download limits', () => {
  it('refuses a bundle larger than the free space before fetching anything', async () => {
    const err = await downloadBundle(options({ freeBytes: async () => 1024 ** 3 })).catch((e: Error) => e);
    expect(err).toBeInstanceOf(FatalError);
    expect((err as Error).message).toBe(`not enough free space in ${join(tmp.dir, 'se_1')}: the bundle needs 2 GiB plus a margin, 1 GiB available`);
  });

  it('reads the real free space with statfs (a bundle of 1 byte fits anywhere)', async () => {
    const err = await downloadBundle(options({
      freshLink: async () => ({ jobId: 'se_1', bundleUrl: 'https://127.0.0.1:1/b.tar.gz', sizeBytes: 1, expiresAt: '2099-01-01T00:00:00Z' }),
    })).catch((e: Error) => e);
    // Past the free-space check: the fetch itself fails (nothing listens on port 1).
    expect((err as Error).message).toMatch(/could not be downloaded intact after 2 attempts \(last: network error: ECONNREFUSED/);
  });
});
