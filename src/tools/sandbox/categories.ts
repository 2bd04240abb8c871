// The sandbox's assistant categories: a module of its own so that what only needs their count
// (arrival models, the sandbox command's option checks) does not load the text corpus.

export const CATEGORIES = [
  'getting-started', 'authentication', 'api-reference', 'billing',
  'integrations', 'troubleshooting', 'deployment', 'customization',
] as const;

/** Category codes: 0 = null, k = CATEGORIES[k - 1]. */
export const CATEGORY_COUNT = CATEGORIES.length;
