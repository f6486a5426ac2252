// The public event website (Astro in SSR mode, built with the @astrojs/node adapter). `podium start`
// serves the built output (dist/) through src/site/server.ts, which puts host resolution, the page cache
// and 304s in front of Astro's app. See docs/site.md.
import { defineConfig } from 'astro/config';
import node, { getAdapter } from '@astrojs/node';
import { fileURLToPath } from 'node:url';
import { precompressSite } from './src/site/precompress.ts';

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

/**
 * After the build, a .br and a .gz beside every text file the front server serves (/_astro/*, and the
 * widgets built into public/widgets before it): compressed once at the best quality, never per request.
 */
function precompress() {
  return {
    name: 'podium-precompress',
    hooks: {
      'astro:build:done': async ({ logger }) => {
        const count = await precompressSite(fileURLToPath(new URL('.', import.meta.url)));
        logger.info(`precompressed ${count} files (.br, .gz)`);
      },
    },
  };
}

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [podiumEntry(), precompress()],
  // Every script and stylesheet is a file (the Content-Security-Policy allows no inline code).
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
  // The front server (src/site/server.ts) sees the real scheme and host (behind a TLS proxy, on custom
  // domains); the access-code form checks Origin itself.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
});
