// Well-formed text only (issue 23): JSON may escape a lone UTF-16 surrogate ("\ud800", a server
// that cut a string inside an emoji), which JavaScript accepts and DuckDB's JSON reader refuses,
// for the whole file it is in. docs-etl's choice: each lone surrogate escape is replaced with
// U+FFFD (the Unicode replacement character) in the JSON text, before the text is parsed and
// landed, so the record still loads (its text marked where it was cut) and no page carries one.
// Surrogate pairs (emoji written as two escapes) are kept. Raw bytes need nothing: the body was
// decoded as UTF-8, which never yields a lone surrogate.

/**
 * A `\uXXXX` escape of a surrogate, preceded by an even number of backslashes (an odd number
 * would make the backslash itself escaped text). Group 1: the backslashes before it; 2: a high
 * surrogate; 3: the low surrogate right after it (a pair); 4: a low surrogate on its own.
 */
const SURROGATE = /(?<!\\)((?:\\\\)*)\\u(?:(d[89ab][0-9a-f]{2})(\\u(?:d[c-f][0-9a-f]{2}))?|(d[c-f][0-9a-f]{2}))/gi;
const QUICK = /\\u[dD][89a-fA-F]/;

export interface WellFormed {
  text: string;
  /** Lone surrogates replaced. */
  replaced: number;
}

/** The JSON text with every lone surrogate escape replaced by `\ufffd`. */
export function replaceLoneSurrogates(text: string): WellFormed {
  if (!QUICK.test(text)) return { text, replaced: 0 };
  let replaced = 0;
  const out = text.replace(SURROGATE, (match, slashes: string, high: string | undefined, low: string | undefined) => {
    if (high !== undefined && low !== undefined) return match;
    replaced++;
    return `${slashes}\\ufffd`;
  });
  return { text: out, replaced };
}
