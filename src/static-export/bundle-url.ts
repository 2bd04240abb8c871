// The presigned bundle link comes from the API: it is checked before anything is fetched or written
// with it. https only (storage is S3); plain http only to a loopback host (the local sandbox); no
// credentials in the URL; and the announced size within the cap.
import { FatalError } from '../core/errors.js';
import { redactUrl } from '../core/secrets.js';
import { serverText } from '../core/server-text.js';
import { formatBytes } from '../sync/api/http.js';
import type { BundleResponse } from '../contracts/static-export.js';

/** Largest bundle downloaded (sizeBytes above it is refused before any byte is fetched). */
export const MAX_BUNDLE_BYTES = 5 * 1024 ** 3;

export function checkBundleLink(link: BundleResponse, maxBytes = MAX_BUNDLE_BYTES): URL {
  let url: URL;
  try {
    url = new URL(link.bundleUrl);
  } catch {
    throw new FatalError('the bundle link from the API is not a URL; refused');
  }
  const shown = serverText(redactUrl(link.bundleUrl), [], 200);
  if (url.username || url.password) throw new FatalError(`the bundle link ${shown} carries credentials; refused`);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname)))) {
    throw new FatalError(`the bundle link ${shown} is not https (plain http is accepted only for a loopback host, e.g. the sandbox); refused`);
  }
  if (link.sizeBytes > maxBytes) {
    throw new FatalError(`the bundle is announced as ${formatBytes(link.sizeBytes)} (sizeBytes), over the ${formatBytes(maxBytes)} cap; refused`);
  }
  return url;
}

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
