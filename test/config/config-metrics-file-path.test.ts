// The config's metricsFile is a path like warehouse or readPath (review of issue 34): relative to
// the config file's folder, whatever directory the command runs from; metricsListen is an address
// and stays as written. And the demo times its syncs with the injectable clock, no Date.now().
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { resolveOpsSettings } from '../../src/config/ops-config.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-metrics-file-path-');
afterAll(() => tmp.cleanup());

describe('config metricsFile', () => {
  it('is resolved against the config file folder, metricsListen left as written', () => {
    const folder = join(tmp.dir, 'etc', 'docs-etl');
    mkdirSync(folder, { recursive: true });
    const config = join(folder, 'config.json');
    writeFileSync(config, JSON.stringify({ projects: [{ id: 'demo', apiKeyEnv: 'K' }], metricsFile: 'metrics/docs-etl.prom', metricsListen: '127.0.0.1:9464' }));
    const ops = resolveOpsSettings({}, {}, loadConfigFile(config));
    expect(ops.metricsFile).toBe(join(folder, 'metrics', 'docs-etl.prom'));
    expect(ops.metricsListen).toMatchObject({ host: '127.0.0.1', port: 9464 });
  });

  it('from --metrics-file or the environment stays relative to the working directory', () => {
    expect(resolveOpsSettings({ metricsFile: 'm.prom' }, {}, null).metricsFile).toBe('m.prom');
    expect(resolveOpsSettings({}, { DOCS_ETL_METRICS_FILE: 'e.prom' }, null).metricsFile).toBe('e.prom');
  });
});

describe('the demo', () => {
  it('reads time from the injectable clock only', () => {
    const source = readFileSync(new URL('../../src/tools/demo/run-demo.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/Date\.now\(/);
    expect(source).toMatch(/clock\.now\(\)/);
  });
});
