// Text that came from a server (error bodies, storage messages, a job's `error`, zod issues about a
// response) is untrusted: it may echo the Authorization header, carry terminal escape sequences or
// forge log lines. Every such text goes through `serverText` before it is printed, logged or stored.
import { scrub } from './secrets.js';

/** Longest server text kept in a message (the rest is cut with an ellipsis). */
export const SERVER_TEXT_MAX = 300;

/* eslint-disable no-control-regex -- matching control characters is the point of this file */
// ANSI/VT escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), DCS/PM/APC/SOS strings,
// and two-character escapes. Removed whole so no fragment (`[31m`) is left behind.
const CSI = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?/g;
const STRINGS = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;
const ESC2 = /\u001b[\u0020-\u007e]?/g;
// Other C0/C1 controls, DEL, and the Unicode format characters that reorder or hide text (bidi
// overrides and isolates, zero-width characters, line and paragraph separators).
const WHITESPACE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/* eslint-enable no-control-regex */

/** Escape sequences and control characters removed; line breaks and tabs become spaces. */
export function stripControls(text: string): string {
  return text.replace(STRINGS, '').replace(CSI, '').replace(ESC2, '').replace(WHITESPACE_CONTROLS, ' ').replace(CONTROLS, '');
}

/**
 * One clean line from server text: controls stripped, the secrets scrubbed (after stripping, so an
 * escape sequence inside an echoed key cannot hide it), whitespace folded, at most `max` characters.
 */
export function serverText(text: string, secrets: readonly string[], max = SERVER_TEXT_MAX): string {
  const clean = scrub(stripControls(text), secrets).replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  return `${clean.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
