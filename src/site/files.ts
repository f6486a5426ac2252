// The build's files (client/ of the site's copy of dist/: /_astro/*, /widgets/*, public/*) through sirv,
// which sends the .br/.gz the build wrote beside them (precompress.ts). One handler for the two places
// that answer them: the front thread (front-worker.ts), so a file never pays the hop to the renderer, and
// the renderer itself when there is no front (SITE_PAGE_CACHE=0). Loaded by the front thread: it imports
// nothing of Astro, the client or the logger.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { lookup } from 'mrmime';
import sirv from 'sirv';
import { encodingOf } from './compress.ts';

/** Files named by their content never change: cached for a year. Others (the widgets' loaders keep their URL) 5 minutes. */
const IMMUTABLE = /^\/(?:_astro|widgets\/chunks)\//;

/** Answers a GET or HEAD of a file under `dir`, or calls `next` (with the request as it came) when there is none. */
export type FileHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export function siteFiles(dir: string): FileHandler {
  const files = sirv(dir, {
    etag: true,
    brotli: true,
    gzip: true,
    extensions: [],
    setHeaders(res, pathname) {
      res.setHeader(
        'cache-control',
        IMMUTABLE.test(pathname) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      // Widgets are loaded as modules from organizers' pages (cross-origin module scripts need CORS).
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('x-content-type-options', 'nosniff');
      const type = lookup(pathname);
      if (type && /^text\/|javascript|json/.test(type)) res.setHeader('content-type', `${type}; charset=utf-8`);
    },
  });
  return (req, res, next) => {
    // sirv takes "br;q=0" for br: it sees the one encoding the site's negotiation chose (encoding.ts).
    const accept = req.headers['accept-encoding'];
    req.headers['accept-encoding'] = encodingOf(accept) ?? '';
    // sirv answers a 304 before it sets its headers: the Vary goes on first, off again for what is next.
    res.setHeader('vary', 'Accept-Encoding');
    files(req, res, () => {
      res.removeHeader('vary');
      if (accept === undefined) delete req.headers['accept-encoding'];
      else req.headers['accept-encoding'] = accept;
      next();
    });
  };
}
