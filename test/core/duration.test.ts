import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, parseRateLimit } from '../../src/core/duration.js';
import { UsageError } from '../../src/core/errors.js';

describe('durations and rate limits', () => {
  it.each([
    ['24h', 86_400_000], ['30m', 1_800_000], ['1h30m', 5_400_000], ['500ms', 500], ['90s', 90_000], ['7d', 604_800_000], ['1.5s', 1500],
  ])('parses %s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 'banana', '10x', '5 h', '-1h', 'h', '36501d', '90', '0', '1.5'])('rejects %j with a UsageError', (text) => {
    expect(() => parseDuration(text)).toThrow(UsageError);
  });

  it('a bare number is refused with a hint naming the units', () => {
    expect(() => parseDuration('24', 'lookback')).toThrow('invalid lookback "24": a duration needs a unit, e.g. 24s, 24m or 24h');
  });

  it('accepts up to 36500d', () => expect(parseDuration('36500d')).toBe(36_500 * 86_400_000));

  it.each([
    ['100/1h', { limit: 100, windowMs: 3_600_000 }], ['20/10s', { limit: 20, windowMs: 10_000 }], ['5/m', { limit: 5, windowMs: 60_000 }],
  ])('parses rate %s', (text, rate) => expect(parseRateLimit(text)).toEqual(rate));

  it.each(['0/1h', '100', '100/', 'x/1h', '100/0s', '99999999999999999999/1h', '100/36501d', '100/60'])('rejects rate %j', (text) => expect(() => parseRateLimit(text)).toThrow(UsageError));

  it.each([[500, '500ms'], [45_000, '45s'], [90_000, '90s'], [600_000, '10m'], [3_600_000, '1h'], [5_400_000, '90m'], [9_000_000, '2h30m']])(
    'formats %d ms as %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
