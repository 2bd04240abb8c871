// The chart library, inlined into every report: d3 and Observable Plot's UMD builds, read from the
// installed packages (found from the package root upwards, as Node resolves a hoisted dependency).
// Nothing is fetched: the page works from disk with no network.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/paths.js';

export interface VendorScript {
  name: string;
  version: string;
  code: string;
}

const VENDOR = [
  { name: 'd3', file: 'dist/d3.min.js' },
  { name: '@observablehq/plot', file: 'dist/plot.umd.min.js' },
] as const;

let cache: VendorScript[] | undefined;

function packageDir(name: string): string {
  for (let dir = PACKAGE_ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`the report needs the package ${name}: run npm ci`);
  }
}

/** d3 first (Plot's UMD build reads the global d3). Read once per process. */
export function vendorScripts(): VendorScript[] {
  cache ??= VENDOR.map((v) => {
    const dir = packageDir(v.name);
    const code = readFileSync(join(dir, v.file), 'utf8');
    // Inlined as the text of a <script>: these sequences would end it or change how it is parsed.
    if (/<\/script|<!--/i.test(code)) throw new Error(`${v.name}/${v.file} cannot be inlined: it contains </script or <!--`);
    return { name: v.name, version: String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version), code };
  });
  return cache;
}
