// The package version, for `--version` and the User-Agent every request carries.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './paths.js';

export const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Lets the API's operators tell this client from a script (no key, host or user in it). */
export const USER_AGENT = `docs-etl/${VERSION}`;
