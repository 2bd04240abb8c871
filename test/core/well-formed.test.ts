// Lone surrogate escapes are replaced with U+FFFD in JSON text; pairs and escaped backslashes are kept.
import { describe, expect, it } from 'vitest';
import { replaceLoneSurrogates } from '../../src/core/well-formed.js';

describe('replaceLoneSurrogates', () => {
  it.each([
    ['"a\\ud800b"', 'a\ufffdb', 1],
    ['"a\\udc00"', 'a\ufffd', 1],
    ['"a\\ud83d\\ude00b"', 'a\u{1F600}b', 0],
    ['"a\\\\ud800"', 'a\\ud800', 0],
    ['"a\\\\\\ud800"', 'a\\\ufffd', 1],
    ['"\\udc00\\ud800\\ud800\\udc00\\uD800"', '\ufffd\ufffd\u{10000}\ufffd', 3],
    ['"emoji 😀 and é"', 'emoji 😀 and é', 0],
  ])('%s', (text, value, replaced) => {
    const out = replaceLoneSurrogates(text);
    expect(JSON.parse(out.text)).toBe(value);
    expect(out.replaced).toBe(replaced);
    expect(JSON.parse(out.text) as string).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});
