// Server text made safe to print, log and store; API keys normalized or refused.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { normalizeApiKey, scrub, secretsOf } from '../../src/core/secrets.js';
import { serverText, stripControls } from '../../src/core/server-text.js';

const KEY = 'mint_server_text_key_0042';

describe('serverText', () => {
  it('strips escape sequences and controls, folds lines, scrubs the key in every echoed spelling', () => {
    const body = `\u001b[31mERROR\u001b[0m bad header: Bearer ${KEY}\n{"level":50,"msg":"forged"}\r\n` +
      `\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 ${encodeURIComponent(KEY)} \u202eevil\u0000 ${JSON.stringify(`${KEY}`)}`;
    const out = serverText(body, [KEY]);
    expect(out).toBe('ERROR bad header: Bearer [redacted] {"level":50,"msg":"forged"} click [redacted] evil "[redacted]"');
    // eslint-disable-next-line no-control-regex -- no control character may remain
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });

  it('finds a key an escape sequence was inserted into', () => {
    const split = `${KEY.slice(0, 8)}\u001b[0m${KEY.slice(8)}`;
    expect(serverText(`echo: ${split}`, [KEY])).toBe('echo: [redacted]');
  });

  it('caps the length with an ellipsis', () => {
    const out = serverText('x'.repeat(10_000), [], 50);
    expect(out).toHaveLength(50);
    expect(out.endsWith('…')).toBe(true);
  });

  it('stripControls keeps ordinary text and Unicode', () => {
    expect(stripControls('Grüße, 東京 — ok')).toBe('Grüße, 東京 — ok');
  });

  it('scrub ignores secrets too short to be keys', () => {
    expect(scrub('a b c', ['b'])).toBe('a b c');
  });
});

describe('normalizeApiKey', () => {
  it('removes a trailing newline, zero-width characters and a Bearer prefix, and says what (not the key)', () => {
    const r = normalizeApiKey(`Bearer \u200b${KEY}\ufeff\n`, 'DOCS_API_KEY');
    expect(r.key).toBe(KEY);
    expect(r.fixes).toEqual(['zero-width characters', 'surrounding whitespace', 'a "Bearer " prefix']);
    expect(normalizeApiKey(KEY, 'DOCS_API_KEY')).toEqual({ key: KEY, fixes: [] });
  });

  it.each([
    ['inner whitespace', 'mint_abc def', /DOCS_API_KEY contains whitespace at position 9 of 12/],
    ['a control character', 'mint_abc\u0007def', /contains a control character at position 9/],
    ['non-ASCII', 'mint_abcé', /contains a non-ASCII character at position 9/],
    ['only whitespace', ' \n', /DOCS_API_KEY is empty/],
    ['only a prefix', 'Bearer  ', /DOCS_API_KEY is empty/],
  ])('refuses %s with a UsageError that does not show the key', (_label, raw, message) => {
    let err: unknown;
    try {
      normalizeApiKey(raw, 'DOCS_API_KEY');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
    if (raw.trim().length > 8) expect((err as Error).message).not.toContain(raw.trim());
  });

  it('secretsOf covers the raw and the normalized forms of key-like variables', () => {
    const s = secretsOf({ DOCS_API_KEY: `Bearer ${KEY}\n`, HOME: '/root' });
    expect(s).toContain(KEY);
    expect(s).toContain(`Bearer ${KEY}\n`);
    expect(s).not.toContain('/root');
  });
});
