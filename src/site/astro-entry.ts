// The server entry of the site's build (dist/server/entry.mjs): Astro's app, rendered by the front
// server (server.ts) with `app.render(request, { locals })`. The @astrojs/node adapter configures the
// build; this entry replaces its request handler, which wraps every request in a Request with an
// AbortSignal — undici registers each such signal for finalization, a quarter of a page's CPU time.
// The front builds a plain Request instead and writes the answer itself.

import { createApp } from 'astro/app/entrypoint';

export const app = createApp({ streaming: false });
