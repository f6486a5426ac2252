// The check-in page's service worker as the site serves it (GET {page}/sw.js, docs/site.md "Check-in"):
// the code of checkin-sw.js (inlined by the build) behind its version. Apart from checkin.ts, as the
// `?raw` import is the build's (Vite), not Node's.

import { createHash } from 'node:crypto';
import WORKER_SOURCE from './checkin-sw.js?raw';

/** The service worker's version: a hash of its code (its cache's name carries it; activate drops older ones). */
export const WORKER_VERSION = createHash('sha256').update(WORKER_SOURCE).digest('hex').slice(0, 16);

/**
 * The check-in page's service worker (checkin-sw.js) as served at {page}/sw.js: its version first, the
 * page's path as the widest scope it may take (Service-Worker-Allowed), never kept by an HTTP cache (the
 * browser checks it for a new version at every load), and a CSP of its own (it fetches this origin only).
 */
export function workerResponse(pagePath: string): Response {
  return new Response(`const VERSION = ${JSON.stringify(WORKER_VERSION)};\n${WORKER_SOURCE}`, {
    status: 200,
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache, max-age=0',
      'service-worker-allowed': pagePath,
      'content-security-policy': "default-src 'self'",
      'x-content-type-options': 'nosniff',
    },
  });
}
