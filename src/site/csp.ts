// The headers every page carries: a Content-Security-Policy that allows no inline script or style (all
// of the site's code and CSS are files on its own origin; JSON-LD blocks are data, not script), and the
// usual hardening headers.

/** The policy: scripts and styles from this origin only; images from anywhere over https (organizer
 * images, speaker photos, logos) and from the platform's public API (the demo's pictures, which it
 * serves over http too on a developer's machine); the registration widget may call that API. The
 * workers are the site's own service workers: /sw.js (Web Push notifications, docs/push.md) and the
 * check-in page's {page}/sw.js (its offline copy, docs/site.md "Check-in").
 *
 * Trusted Types are enforced: no page script hands a string to a DOM sink. The three policies allowed
 * are the only ones the site's scripts create: `lit-html`, Lit's own (the widgets the event's home
 * and the embed configurator load; one Lit per page, so no duplicates), `podium-sw`, which answers
 * the push service worker's address only (push.client.ts), and `podium-checkin-sw`, the check-in
 * page's worker's address only (checkin.client.ts). Astro's scripts are plain module
 * files and create none; live.client.ts parses pages with XMLHttpRequest, not a string sink. */
export function contentSecurityPolicy(publicApiOrigin: string): string {
  const connect = publicApiOrigin ? `'self' ${publicApiOrigin}` : "'self'";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    "style-src 'self'",
    `img-src 'self'${publicApiOrigin ? ` ${publicApiOrigin}` : ''} https: data:`,
    "font-src 'self' https:",
    `connect-src ${connect}`,
    "form-action 'self'",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types lit-html podium-sw podium-checkin-sw',
  ].join('; ');
}

/** Every page: no camera, microphone or location for the page or anything it frames. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';
/**
 * The one page that films: the staff check-in page (/{company}/{event}/checkin) scans QR codes with the
 * camera, its own origin only (no frame gets it). It sets this header itself; the middleware keeps
 * exactly this value and replaces any other with PERMISSIONS_POLICY.
 */
export const CAMERA_PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=()';

export function securityHeaders(publicApiOrigin: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(publicApiOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS_POLICY,
  };
}
