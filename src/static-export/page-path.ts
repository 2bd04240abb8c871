// One spelling of a page across the export, the warehouse and analytics URLs: the path with the
// leading and trailing `/` stripped and `.html` stripped, `index` for the root; no query/fragment.
// The SQL macro `page_key(url)` (migration 0003) implements the same rule for the views.

/** `guides/start.html` → `guides/start`; `./index.html` → `index`. Null when not a page file. */
export function pagePathOfEntry(entryPath: string): string | null {
  const p = entryPath.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  if (!p.endsWith('.html') || p.split('/').some((seg) => seg === '..' || seg === '')) return null;
  return p.slice(0, -'.html'.length) || null;
}

/** `https://docs.example.com/guides/start/?x#y` → `guides/start`; `/` → `index`. */
export function pageKey(urlOrPath: string): string {
  const path = urlOrPath.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '').replace(/[?#].*$/, '');
  const key = path.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.html$/, '');
  return key === '' ? 'index' : key;
}
