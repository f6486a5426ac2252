// The staff check-in page's service worker (docs/site.md "Check-in", "Offline"): served by the site at
// {page}/sw.js (src/pages/[company]/[event]/checkin/sw.js.ts, which puts `const VERSION = "…"` — a hash
// of this file — before it) and registered by the page's script with the page's own path as its scope,
// so it controls that one page (and nothing else of the site: /sw.js, the push worker, keeps scope /).
// What it keeps, in one cache per page and version (`podium-checkin:{path}:{VERSION}`):
// - the page itself (HTML), network first: online, every load comes from the server (a new deploy shows
//   at once) and replaces the kept copy; without a network (or with the server failing, 5xx) the kept
//   copy is shown, so a reload at a door without signal still opens the scanner;
// - the scripts and stylesheets that page names (and the modules those scripts import), refreshed with
//   the page: what the new page no longer names is dropped.
// Never kept: the page's JSON endpoints (scan, stats: the platform's answers), anything but GET, other
// origins, any address with a token in it. The staff token is an HttpOnly cookie the page never holds,
// and the page's HTML carries none. Scans made offline wait in IndexedDB (checkin-queue.ts), not here.
/* global self, caches, clients, VERSION */

const PREFIX = 'podium-checkin:';
const SCOPE = new URL(self.registration.scope);
const PAGE = SCOPE.origin + SCOPE.pathname;
const MINE = `${PREFIX}${SCOPE.pathname}:`;
const CACHE = `${MINE}${VERSION}`;
/** Scripts a page names, and module imports in those scripts: at most this many files kept. */
const MAX_FILES = 60;

/** Whether a response of the network may be kept: this origin, 200, not an endpoint of the page, no token. */
function keepable(url, response) {
  if (url.origin !== SCOPE.origin || !response || response.status !== 200 || response.type !== 'basic') return false;
  if (/token/i.test(url.search)) return false;
  // The page itself is kept by storePage; under its path (scan, stats, this worker) nothing is.
  return !(url.pathname === SCOPE.pathname || url.pathname.startsWith(`${SCOPE.pathname}/`));
}

/** The same-origin scripts and stylesheets a page's HTML names. */
function filesOfPage(html) {
  const urls = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/gi) ?? []) {
    const isLink = /^<link/i.test(tag);
    if (isLink && !/\brel=["']?(?:stylesheet|modulepreload)\b/i.test(tag)) continue;
    const m = tag.match(isLink ? /\bhref=["']([^"']+)["']/i : /\bsrc=["']([^"']+)["']/i);
    if (m) urls.push(new URL(m[1].replaceAll('&amp;', '&'), PAGE));
  }
  return urls;
}

/** The modules a script imports statically (`import"./x.js"`, `from"./x.js"`), as built. */
function importsOf(js, base) {
  const urls = [];
  for (const m of js.matchAll(/(?:\bimport|\bfrom)\s*\(?\s*["'](\.{0,2}\/[^"']+)["']/g)) urls.push(new URL(m[1], base));
  return urls;
}

/** Keeps the page's HTML and every file it needs; drops the files of older versions of the page. */
async function storePage(response) {
  const cache = await caches.open(CACHE);
  const html = await response.clone().text();
  const wanted = new Set([PAGE]);
  const queue = filesOfPage(html).filter((u) => u.origin === SCOPE.origin);
  while (queue.length > 0 && wanted.size < MAX_FILES) {
    const url = queue.shift();
    url.hash = '';
    if (wanted.has(url.href)) continue;
    wanted.add(url.href);
    let file = await cache.match(url.href, { ignoreVary: true });
    // Files named by their content (/_astro/) never change: fetched once.
    if (!file || !url.pathname.startsWith('/_astro/')) {
      const fresh = await fetch(url.href, { credentials: 'same-origin' }).catch(() => undefined);
      if (keepable(url, fresh)) {
        await cache.put(url.href, fresh.clone());
        file = fresh;
      }
    }
    if (file && /javascript/.test(file.headers.get('content-type') ?? ''))
      for (const dep of importsOf(await file.clone().text(), url)) if (dep.origin === SCOPE.origin) queue.push(dep);
  }
  await cache.put(PAGE, response);
  for (const request of await cache.keys()) if (!wanted.has(request.url)) await cache.delete(request);
}

self.addEventListener('install', (event) => {
  // Installed only once the page and its files are kept: a worker that could not keep them is not used.
  event.waitUntil(
    fetch(PAGE, { credentials: 'same-origin', cache: 'no-store' })
      .then((res) => {
        if (res.status !== 200) throw new Error(`the check-in page answered ${res.status}`);
        return storePage(res);
      })
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Older versions of this page's cache go (other pages' caches are theirs).
      for (const name of await caches.keys()) if (name.startsWith(MINE) && name !== CACHE) await caches.delete(name);
      await clients.claim();
    })(),
  );
});

async function page(event) {
  let fresh;
  try {
    fresh = await fetch(event.request);
  } catch (err) {
    const kept = await caches.match(PAGE, { cacheName: CACHE, ignoreVary: true });
    if (kept) return kept;
    throw err;
  }
  if (fresh.status === 200 && fresh.type === 'basic' && !fresh.redirected) {
    event.waitUntil(storePage(fresh.clone()).catch(() => undefined));
  } else if (fresh.status >= 500) {
    const kept = await caches.match(PAGE, { cacheName: CACHE, ignoreVary: true });
    if (kept) return kept;
  }
  return fresh;
}

async function file(event, url) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(url.href, { ignoreVary: true });
  if (kept && url.pathname.startsWith('/_astro/')) return kept;
  try {
    const fresh = await fetch(event.request);
    if (keepable(url, fresh)) event.waitUntil(cache.put(url.href, fresh.clone()));
    return fresh;
  } catch (err) {
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin) return;
  if (request.mode === 'navigate' && url.origin + url.pathname === PAGE) return event.respondWith(page(event));
  // The page's scripts and styles; its endpoints (scan, stats) and everything else go to the network as is.
  if (
    (request.destination === 'script' || request.destination === 'style') &&
    keepable(url, { status: 200, type: 'basic' })
  )
    return event.respondWith(file(event, url));
});
