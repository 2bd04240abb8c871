// The config file is JSON with comments (JSONC): `//` line comments and `/* */` block comments are
// allowed, so the starter file `docs-etl init` writes can explain each field where it stands.
// Comments are replaced by spaces (newlines kept), so JSON.parse's positions still point at the
// right place in the file; text inside strings is never touched.

/** `text` with every comment outside a string blanked out. An unterminated block comment is left to JSON.parse. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n\r]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      // A string runs to the next quote that is not escaped (or to the end of the line: JSON.parse reports it).
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const j = end === -1 ? text.length : end;
      out += blank(text.slice(i, j));
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) {
        out += text.slice(i);
        break;
      }
      out += blank(text.slice(i, end + 2));
      i = end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
