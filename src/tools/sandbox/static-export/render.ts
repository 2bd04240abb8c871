// Renders a site's files as a static export lays them out: one `<path>.html` per page (links inside
// use `.html`), Next.js-like assets, an image, an RSC payload and a sitemap with extensionless URLs.
import { createHash } from 'node:crypto';
import type { TarFile } from './tar-gz.js';
import type { SitePage } from './site.js';

export interface RenderedSite {
  files: TarFile[];
  /** Per page: the HTML byte length, as stored in the archive. */
  pageBytes: Map<string, number>;
}

export interface RenderInput {
  domain: string;
  pages: readonly SitePage[];
  version: string | null;
  seed: number;
}

type EscapeStyle = 'named' | 'decimal' | 'hex' | 'raw';
const STYLES: EscapeStyle[] = ['named', 'decimal', 'hex', 'raw'];
const NAMED: Record<string, string> = { 'é': 'eacute', 'ñ': 'ntilde', '→': 'rarr', '—': 'mdash', '’': 'rsquo', '\u00a0': 'nbsp' };

/** Escapes text for HTML; non-ASCII is written in the given style so readers must decode all forms. */
export function escapeHtml(text: string, style: EscapeStyle = 'raw'): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += style === 'named' ? '&apos;' : '&#39;';
    else if (cp < 0x80 || style === 'raw') out += ch;
    else if (style === 'named' && NAMED[ch]) out += `&${NAMED[ch]};`;
    else if (style === 'hex') out += `&#x${cp.toString(16).toUpperCase()};`;
    else out += `&#${cp};`;
  }
  return out;
}

function hash8(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

export function renderSite(input: RenderInput): RenderedSite {
  const { domain, pages, version, seed } = input;
  const css = `/* ${domain} */\n:root{--primary:#0d9373}body{font-family:system-ui;margin:0}main{max-width:48rem;margin:auto}\n`;
  const js = `// ${domain} build ${seed}\nwindow.__DOCS__={domain:${JSON.stringify(domain)},version:${JSON.stringify(version)}};\n`;
  const cssPath = `_next/static/css/app-${hash8(css)}.css`;
  const jsPath = `_next/static/chunks/main-${hash8(js)}.js`;
  const nav = pages.slice(0, 12);
  const pageBytes = new Map<string, number>();
  const htmlFiles: TarFile[] = pages.map((page, i) => {
    const title = escapeHtml(page.title, STYLES[i % STYLES.length]);
    const html = pageHtml({ domain, page, title, nav, cssPath, jsPath, version });
    const content = Buffer.from(html, 'utf8');
    pageBytes.set(page.path, content.length);
    return { path: `${page.path}.html`, content };
  });
  const assets: TarFile[] = [
    { path: cssPath, content: Buffer.from(css) },
    { path: jsPath, content: Buffer.from(js) },
    { path: 'images/logo.png', content: PNG_1X1 },
    { path: 'favicon.svg', content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>\n') },
    // React Server Component payload: not a page, so it must not be counted as one.
    { path: 'index.txt', content: Buffer.from(`0:["${domain}",${JSON.stringify(pages.length)}]\n`) },
    { path: 'sitemap.xml', content: Buffer.from(sitemap(domain, pages)) },
  ];
  const files = [...htmlFiles, ...assets].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: withDirectories(files), pageBytes };
}

function pageHtml(p: {
  domain: string; page: SitePage; title: string; nav: readonly SitePage[]; cssPath: string; jsPath: string; version: string | null;
}): string {
  const links = p.nav.map((n) => `<li><a href="/${n.path}.html">${escapeHtml(n.title)}</a></li>`).join('');
  const canonical = `https://${p.domain}/${p.page.path === 'index' ? '' : p.page.path}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${p.title}</title>`,
    `<link rel="canonical" href="${canonical}">`,
    `<link rel="stylesheet" href="/${p.cssPath}"><script src="/${p.jsPath}" defer></script>`,
    '</head><body>',
    `<header><img src="/images/logo.png" alt="${escapeHtml(p.domain)}"></header>`,
    `<nav><ul>${links}</ul></nav>`,
    `<main><h1>${p.title}</h1><p>This page documents ${escapeHtml(p.page.path)}.</p></main>`,
    `<footer>${p.version ? `Version ${escapeHtml(p.version)}` : 'Latest version'}</footer>`,
    '</body></html>',
    '',
  ].join('\n');
}

function sitemap(domain: string, pages: readonly SitePage[]): string {
  const urls = pages.map((p) => `  <url><loc>https://${domain}/${p.path === 'index' ? '' : p.path}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Adds a directory entry before the first file of each directory, as `tar -c` does. */
function withDirectories(files: TarFile[]): TarFile[] {
  const seen = new Set<string>();
  const out: TarFile[] = [];
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = `${parts.slice(0, i).join('/')}/`;
      if (!seen.has(dir)) {
        seen.add(dir);
        out.push({ path: dir });
      }
    }
    out.push(f);
  }
  return out;
}

/** A valid 1×1 transparent PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
