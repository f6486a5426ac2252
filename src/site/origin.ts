// Whether a form POST comes from a page of this site: the site's forms refuse posts made by other sites.

/**
 * True when the browser says the POST came from this host. Fetch Metadata first (`Sec-Fetch-Site`,
 * sent by every current browser and independent of the page's Referrer-Policy); else the `Origin`'s
 * host name. A page served with `Referrer-Policy: no-referrer` makes its own posts carry
 * `Origin: null`, and old browsers and non-browser clients send none: those pass, as they carry no
 * sign of another site.
 */
export function postedFromHere(headers: Headers, hostname: string): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  if (fetchSite !== null) return fetchSite === 'same-origin';
  const origin = headers.get('origin');
  if (!origin || origin === 'null') return true;
  try {
    return new URL(origin).hostname === hostname;
  } catch {
    return false;
  }
}
