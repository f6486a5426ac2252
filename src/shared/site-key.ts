// The headers of the public site's key (SITE_API_KEY), named once for the platform that reads them
// (src/platform/forwarded.ts) and the client that sends them (src/client/client.ts).

/** The site's shared secret, sent with each of its calls. */
export const SITE_KEY_HEADER = 'x-podium-site-key';
/** The visitor's address, as the site saw it (believed with the key only). */
export const CLIENT_IP_HEADER = 'x-podium-client-ip';
/**
 * The platform's verdict on a sent key, in the answer's header of the same name: `accepted` or
 * `refused`. Only a caller that sent a key hears it, and only of the key it sent (docs/deploy.md).
 */
export type SiteKeyVerdict = 'accepted' | 'refused';
