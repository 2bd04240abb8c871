// Safe HTML building. Every value interpolated into `html`…`` is escaped unless it is already Html,
// so text from the data (questions are user input) can never become markup. Data for the page's
// scripts goes through scriptJson, which cannot end its <script> element.

/** A fragment of trusted markup (built by `html` or `raw`). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and for quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Markup we wrote ourselves (never data). */
export function raw(markup: string): Html {
  return new Html(markup);
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(v: Part): string {
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === null || v === undefined || v === false) return '';
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/**
 * JSON for a <script type="application/json"> element: `<`, `>` and `&` become \u escapes (so no
 * `</script` or `<!--` can appear), and U+2028/U+2029 too (line terminators in older JS parsers).
 * JSON.parse of the element's text gives the value back unchanged.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
