// The API client's settings by default, apart from the modules that send requests: the config's
// grammar reads them in every CLI process, a usage error included, and must not load the HTTP
// client (undici) to know them; the request budget (src/budget) bounds its slots by the same
// request deadline and 429 floor, so they live beside the API's shapes, below both.
export const DEFAULT_BASE_URL = 'https://api.mintlify.com';
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Well above a page of 1,000 turns (a few MB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Shortest wait after a 429, whatever Retry-After says (`0` included): no hammering. */
export const MIN_RETRY_AFTER_MS = 1_000;
