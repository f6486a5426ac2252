// The public event website (Astro in SSR mode, built with the @astrojs/node adapter). `podium start`
// serves the built output (dist/) through src/site/server.ts, which puts host resolution, the page cache
// and 304s in front of Astro's app. See docs/site.md.
import { defineConfig } from 'astro/config';
import node, { getAdapter } from '@astrojs/node';

/**
 * The node adapter, with the site's own server entry (src/site/astro-entry.ts: the app, for the front
 * server to render with) instead of the adapter's request handler.
 */
function podiumEntry() {
  return {
    name: 'podium-site-entry',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          ...getAdapter({ staticHeaders: false }),
          serverEntrypoint: new URL('./src/site/astro-entry.ts', import.meta.url),
          previewEntrypoint: undefined,
        });
      },
    },
  };
}

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [podiumEntry()],
  // Every script and stylesheet is a file (the Content-Security-Policy allows no inline code).
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
  // The front server (src/site/server.ts) sees the real scheme and host (behind a TLS proxy, on custom
  // domains); the access-code form checks Origin itself.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
});
