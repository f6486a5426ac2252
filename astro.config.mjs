// The public event website: Astro in SSR mode with Podium's own adapter (src/site/adapter.ts).
// - `podium start` builds it (dist/) and serves it through src/site/server.ts: the page cache in front,
//   the build's files (precompressed), then the build's entry with `locals.runtime`.
// - `npm run dev` starts the API and `astro dev` (hot reload) on the same middleware, which makes its
//   runtime from the environment (PODIUM_API_URL, …).
// Host resolution, custom domains (`context.rewrite`) and ?lang= redirects are in src/middleware.ts
// (src/site/route.ts) either way. See docs/site.md, "How a request is served".
import { defineConfig, passthroughImageService } from 'astro/config';
import { podiumAdapter } from './src/site/adapter.ts';
import { fileURLToPath } from 'node:url';
import { precompressSite } from './src/site/precompress.ts';

/** /_podium/health, /_podium/theme.css, /_podium/domains/ask: src/pages cannot hold a folder named `_…`. */
function podiumRoutes() {
  return {
    name: 'podium-routes',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        injectRoute({ pattern: '/_podium/[...path]', entrypoint: './src/site/podium-endpoint.ts', prerender: false });
      },
    },
  };
}

/**
 * After the build, a .br and a .gz beside every text file of dist/client (the /_astro/ assets and the
 * widgets copied from public/): compressed once at the best quality, never per request.
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
  // Podium's own adapter (src/site/adapter.ts): the site's server hands Astro a Web Request and writes
  // its Response. No streaming there: src/middleware.ts reads every page whole (ETag, page cache,
  // compression), so a streamed body only added a promise per chunk; rendering to one string made cold
  // renders ~10% faster (bench/site.mjs, docs/site.md).
  adapter: podiumAdapter(),
  integrations: [podiumRoutes(), precompress()],
  // No sessions: nothing of the site keeps a visitor's state on the server.
  session: false,
  // No image processing: organizers' pictures are their own URLs, the demo's are SVG files.
  image: { service: passthroughImageService() },
  // Every script and stylesheet is a file (the Content-Security-Policy allows no inline code).
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
  // The middleware reads the real scheme and host itself (behind a TLS proxy, on custom domains); the
  // access-code form checks Origin itself.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  // astro dev answers any Host, as the site does: custom domains can be tried against it.
  server: { allowedHosts: true },
});
