// The mobile app's URL scheme (spec §4.11, APP_SCHEME): the app opens with `<scheme>://?<params>`, and the
// site's /appURL.php rewrites the same query to that form for mail clients that refuse unknown schemes.
// One rule for the platform's config (src/platform/config.ts) and the site's own reading of the
// environment (astro dev): a scheme name only (RFC 3986 §3.1), never one a browser would run or fetch.

/** RFC 3986 scheme syntax, at most 40 characters. */
const SCHEME = /^[a-z][a-z0-9+.-]{0,39}$/i;
/** Schemes that are not an app's: the web's own, and those that run or read something in the browser. */
const REFUSED = new Set([
  'http',
  'https',
  'javascript',
  'data',
  'file',
  'vbscript',
  'blob',
  'about',
  'ftp',
  'ws',
  'wss',
]);

/** Why `value` is not a usable app scheme, or undefined when it is. */
export function appSchemeProblem(value: string): string | undefined {
  if (!SCHEME.test(value)) return 'must be a URL scheme name only (a letter, then letters, digits, + . -), like myapp';
  if (REFUSED.has(value.toLowerCase())) return `must be the app's own scheme, not ${value.toLowerCase()}`;
  return undefined;
}

/** The four parameters of spec §4.11, in this order; any other parameter is dropped. */
export const APP_PARAMS = ['tokenID', 'eventID', 'memberID', 'name'] as const;

/** `<scheme>://?<only the four parameters, each once, as given>` (an empty query when none was given). */
export function appUrl(scheme: string, query: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const key of APP_PARAMS) {
    const value = query.get(key);
    if (value !== null) out.set(key, value);
  }
  return `${scheme.toLowerCase()}://?${out.toString()}`;
}
