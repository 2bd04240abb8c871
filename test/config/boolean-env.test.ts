// Every yes/no environment variable reads the same words (core/env-boolean.ts): "yes" turning
// `schedule --catch-up` on must also turn S3 path-style addressing on, and a typo is one clear line.
import { describe, expect, it } from 'vitest';
import { catchUpWanted } from '../../src/cli/commands/schedule-catch-up.js';
import { s3Client } from '../../src/outputs/lake/s3-client.js';

const pathStyle = (v: string) => s3Client({ DOCS_ETL_S3_PATH_STYLE: v, AWS_REGION: 'us-east-1' }).config.forcePathStyle;
const catchUp = (v: string) => catchUpWanted(undefined, { DOCS_ETL_CATCH_UP: v });

describe('yes/no environment variables', () => {
  it.each(['1', 'true', 'YES', ' on '])('"%s" is on for every variable', (v) => {
    expect(catchUp(v)).toBe(true);
    expect(pathStyle(v)).toBe(true);
  });

  it.each(['0', 'False', 'no', 'off'])('"%s" is off for every variable', (v) => {
    expect(catchUp(v)).toBe(false);
    expect(s3Client({ DOCS_ETL_S3_PATH_STYLE: v, AWS_ENDPOINT_URL: 'http://127.0.0.1:9' }).config.forcePathStyle).toBe(false);
  });

  it('unset or blank keeps each default (catch-up off; path-style only with an endpoint)', () => {
    expect(catchUp('')).toBe(false);
    expect(pathStyle(' ')).toBe(false);
    expect(s3Client({ AWS_ENDPOINT_URL: 'http://127.0.0.1:9' }).config.forcePathStyle).toBe(true);
  });

  it('anything else is one line naming the variable, for every variable', () => {
    expect(() => catchUp('maybe')).toThrow('DOCS_ETL_CATCH_UP must be 1 or 0 (true/false, yes/no, on/off), not "maybe"');
    expect(() => pathStyle('maybe')).toThrow('DOCS_ETL_S3_PATH_STYLE must be 1 or 0 (true/false, yes/no, on/off), not "maybe"');
  });
});
