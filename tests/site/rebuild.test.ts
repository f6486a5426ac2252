// A build under a running site: `npm test` beside `npm start`, or a second `podium start` after an edit,
// empties and rewrites dist/. The running site serves its own copy of the build (build.ts copyBuild), so
// it goes on answering its files and rendering pages whose modules it had not imported yet. The site
// runs in this process on a tree of its own (a copy of dist/ under node_modules/.cache, where its imports
// still resolve), so the test can empty that dist/ as a build would.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../src/site/build.ts';
import { startSite, type Site } from '../../src/site/server.ts';
import { ROOT } from './harness.ts';

describe('a rebuild of dist/ under a running site', () => {
  let root: string;
  let platform: Server;
  let site: Site;
  const copies = () => join(root, 'node_modules/.cache/podium-site');
  // A copy left by a process that is gone (no pid is that high).
  const stale = () => join(copies(), '999999999-x');

  beforeAll(async () => {
    await ensureBuilt(ROOT);
    root = mkdtempSync(join(ROOT, 'node_modules/.cache/podium-rebuild-test-'));
    cpSync(join(ROOT, 'dist'), join(root, 'dist'), { recursive: true });
    mkdirSync(stale(), { recursive: true });
    // A platform that knows nothing: every page is the site's "not found".
    platform = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"count":"0","data":[]}');
    });
    await new Promise<void>((r) => platform.listen(0, '127.0.0.1', r));
    const address = platform.address();
    const api = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
    site = await startSite({
      root,
      apiUrl: api,
      publicApiUrl: api,
      siteHosts: ['127.0.0.1'],
      host: '127.0.0.1',
      port: 0,
      pageCache: false,
      followChanges: false,
    });
  }, 180_000);

  afterAll(async () => {
    await site?.close().catch(() => {});
    await new Promise((r) => platform?.close(r));
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('serves its files and renders its pages from its own copy once dist/ is gone', async () => {
    const css = readdirSync(join(root, 'dist/client/_astro')).find((f) => f.endsWith('.css'))!;
    const before = await fetch(`${site.url}/_astro/${css}`);
    expect(before.status).toBe(200);
    const bytes = await before.text();
    // What `astro build` does first (emptyDir), and what the site then finds.
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    const after = await fetch(`${site.url}/_astro/${css}`);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(bytes);
    // A page whose module is imported on its first request (the company page: unknown here, so 404).
    const page = await fetch(`${site.url}/acme`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('<html');
  });

  it('removes the copies of processes that are gone, and its own when it closes', async () => {
    expect(existsSync(stale())).toBe(false);
    const own = readdirSync(copies());
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(new RegExp(`^${process.pid}-`));
    await site.close();
    expect(readdirSync(copies())).toEqual([]);
  });
});
