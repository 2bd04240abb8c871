// Which Node runs docs-etl. package.json's `engines.node` (`>=22`) is the one home of the minimum:
// doctor's versions check and the CLI's start-up warning (src/cli/main.ts) both read it from there.
// Node 20 left support in April 2026 (and the AWS SDK requires 22 from January 2027): below the
// minimum the CLI still starts, with one warning line, so a scheduled sync on a host not yet
// upgraded keeps its data moving while `doctor` marks the host ✗.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/paths.js';

function packageEngines(): string | undefined {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  return pkg.engines?.node;
}

/** The lowest Node version `engines.node` allows: its first version number (`>=22` → `22`). */
export function minNodeVersion(engines: string | undefined = packageEngines()): string {
  const min = /(\d+(?:\.\d+){0,2})/.exec(engines ?? '')?.[1];
  if (!min) throw new Error(`package.json's engines.node names no version: ${String(engines)}`);
  return min;
}

/** Why `node` (a version like `20.19.2`) is not supported, in one sentence, or undefined when it is. */
export function unsupportedNode(node: string, min: string = minNodeVersion()): string | undefined {
  if (compareVersions(node, min) >= 0) return undefined;
  const major = node.split('.')[0];
  const needs = `docs-etl needs Node ${min.split('.')[0]} LTS`;
  if (major === '20') return `Node 20 is out of support since April 2026; ${needs}`;
  return `Node ${major} is older than ${min}; ${needs}`;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
