/// <reference types="astro/client" />

// Astro.locals of every page and endpoint: `runtime` comes from the front server (src/site/server.ts)
// or, under `astro dev`, from the environment; `podium` is set by src/middleware.ts for each request.
declare namespace App {
  interface Locals {
    runtime: import('./site/context.ts').SiteRuntime;
    podium: import('./site/context.ts').RequestContext;
    /** The visitor's socket address, set by the front server (server.ts) when its own socket's is not it. */
    peer?: string;
  }
}
