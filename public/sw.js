// The site's service worker (docs/push.md "Web Push"): shows the notification the platform sends when a
// saved session moves, changes rooms or is cancelled, and opens its page on a click. Served from the
// site's root (scope /), so it serves an event's own domain as well as the platform's site. It caches
// nothing and handles no fetch: pages stay exactly as the server sends them.
/* global self, clients */

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(clients.claim()));

/** A path of this site: a notification never opens another. */
function sameSite(url) {
  try {
    const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.pathname + target.search : '/';
  } catch {
    return '/';
  }
}

self.addEventListener('push', (event) => {
  let data;
  try {
    data = (event.data && event.data.json()) || {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Your saved sessions changed';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/favicon.svg',
      data: { url: sameSite(data.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const open = await clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = open.find((c) => new URL(c.url).pathname === url.split('?')[0]);
      if (same) return same.focus();
      return clients.openWindow(url);
    })(),
  );
});
