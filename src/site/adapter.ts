// Podium's Astro adapter (Astro's adapter API: an integration that sets the server entrypoint). The
// build's dist/server/entry.mjs is adapter-entry.ts: Astro's app behind one function from a Web
// Request to its Response. The site's server (server.ts) makes the Request from node:http and writes
// the Response back itself (astro-http.ts), so no part of the request path is the adapter's: no
// per-request AbortController, socket listeners or stream reading that @astrojs/node adds around
// the same render (docs/site.md, "The adapter"). `astro dev` does not use it.
import type { AstroIntegration } from 'astro';

export function podiumAdapter(): AstroIntegration {
  return {
    name: 'podium-adapter',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: 'podium',
          entrypointResolution: 'auto',
          serverEntrypoint: new URL('./adapter-entry.ts', import.meta.url),
          adapterFeatures: { buildOutput: 'server', middlewareMode: 'classic' },
          // Every page renders per request; nothing of the site uses images or astro:env.
          supportedAstroFeatures: {
            serverOutput: 'stable',
            staticOutput: 'unsupported',
            hybridOutput: 'unsupported',
            sharpImageService: 'unsupported',
            envGetSecret: 'unsupported',
          },
        });
      },
    },
  };
}
