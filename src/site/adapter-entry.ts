// The build's server entry (adapter.ts): Astro's app, rendered whole (no streaming: the middleware
// reads every page whole for its ETag, the page cache and compression).
import { createApp } from 'astro/app/entrypoint';

const app = createApp({ streaming: false });

/**
 * Renders a request through the middleware and its route; undefined when no route matches (the
 * `[...path]` page matches every path, so only addresses Astro itself refuses).
 */
export async function render(
  request: Request,
  locals: Partial<App.Locals>,
  clientAddress: string | undefined,
): Promise<Response | undefined> {
  const routeData = app.match(request, true);
  if (!routeData) return undefined;
  return app.render(request, { addCookieHeader: true, locals, routeData, clientAddress });
}
