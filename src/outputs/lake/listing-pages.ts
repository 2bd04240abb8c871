// The continuation tokens of one S3 listing, checked page by page: a listing ends when the service
// says it is complete; a truncated page without a token, a token seen before (a server or proxy
// looping) or more than `maxPages` pages fail the listing with one line, instead of listing for ever.
import { FatalError } from '../../core/errors.js';

export interface ListingPages {
  /** After a page: the token of the next one, or undefined when the listing is complete. */
  next(truncated: boolean, token: string | undefined): string | undefined;
}

export function listingPages(where: string, maxPages: number): ListingPages {
  const seen = new Set<string>();
  let pages = 0;
  const stop = (why: string) => new FatalError(`cannot list ${where}: ${why} after ${pages} page(s); stopping (is the endpoint really S3?)`);
  return {
    next: (truncated, token) => {
      pages++;
      if (!truncated) return undefined;
      if (!token) throw stop('the service said the listing goes on but gave no continuation token');
      if (seen.has(token)) throw stop('the service repeated a continuation token');
      if (pages >= maxPages) throw stop(`more than ${maxPages} pages`);
      seen.add(token);
      return token;
    },
  };
}
