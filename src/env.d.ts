/// <reference types="astro/client" />

// Astro.locals of every page and endpoint: set by the front server (src/site/server.ts).
declare namespace App {
  interface Locals {
    podium: import('./site/context.ts').RequestContext;
  }
}
