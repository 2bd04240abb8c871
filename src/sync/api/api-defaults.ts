// The API client's settings by default, apart from the modules that send requests: the config's
// grammar reads them in every CLI process, a usage error included, and must not load the HTTP
// client (undici) to know them.
export const DEFAULT_BASE_URL = 'https://api.mintlify.com';
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Well above a page of 1,000 turns (a few MB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
