// The schedule page in the browser (bundled by Astro into a file; the CSP allows no inline script).
// Everything here enhances server-rendered HTML that works without it:
// - favourites: the star of each session, kept in localStorage (no login, no cookie); "my schedule"
//   (mine=1 in the URL) shows only them; the calendar link then exports them;
// - time zone: the event's or the visitor's, switchable, remembered, and kept in the URL (tz=local);
// - now/next: the sessions running now and the next ones are marked, refreshed every minute;
// - keyboard: arrow keys move between sessions of the grid.

import { loadFavourites, saveFavourites, toggleFavourite } from '../shared/schedule/favourites.ts';
import { formatRange, formatTime, localTimeZone, zoneLabel } from '../shared/schedule/time.ts';

const TZ_KEY = 'podium:tz';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function init(root: HTMLElement): void {
  const eventID = Number(root.dataset.event);
  const eventZone = root.dataset.tz || 'UTC';
  const locale = root.dataset.locale || 'en';
  const store = storage();
  let favourites = loadFavourites(store, eventID);
  const mine = root.dataset.mine === '1';
  const items = Array.from(root.querySelectorAll<HTMLElement>('[data-id]'));
  // The favourite button and the now/next badges of each session exist only with this script.
  const favLabel = root.dataset.favLabel || '{name}';
  for (const el of items) {
    const title = el.querySelector('a')?.textContent ?? '';
    const when = el.querySelector('.when') ?? el.querySelector('time');
    for (const [kind, label] of [
      ['now', root.dataset.nowLabel],
      ['next', root.dataset.nextLabel],
    ] as const) {
      const badge = document.createElement('span');
      badge.className = `badge live-badge ${kind}`;
      badge.textContent = label ?? kind;
      if (when?.classList.contains('when')) when.append(badge);
      else when?.after(badge);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'fav';
    button.dataset.fav = el.dataset.id;
    button.setAttribute('aria-pressed', 'false');
    button.setAttribute('aria-label', favLabel.replace('{name}', title));
    el.append(button);
  }
  const icsLink = root.querySelector<HTMLAnchorElement>('.ics-link');
  const mineEmpty = root.querySelector<HTMLElement>('.mine-empty');

  function paintFavourites(): void {
    for (const el of items) {
      const on = favourites.has(Number(el.dataset.id));
      el.classList.toggle('is-favourite', on);
      el.querySelector<HTMLButtonElement>('.fav')?.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
    for (const block of root.querySelectorAll<HTMLElement>('.day-block')) {
      block.classList.toggle('has-favourite', block.querySelector('.is-favourite') !== null);
    }
    if (mine && mineEmpty) {
      const anyShown = items.some((el) => el.classList.contains('is-favourite'));
      mineEmpty.hidden = anyShown;
    }
    if (icsLink) {
      if (mine) {
        const ids = [...favourites].sort((a, b) => a - b).join(',');
        icsLink.href = `${root.dataset.icsBase}?ids=${ids || '0'}`;
      } else if (root.dataset.ics) icsLink.href = root.dataset.ics;
    }
  }

  root.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('button.fav');
    if (!button) return;
    favourites = toggleFavourite(favourites, Number(button.dataset.fav));
    saveFavourites(store, eventID, favourites);
    paintFavourites();
  });
  // Another tab changed the favourites.
  window.addEventListener('storage', () => {
    favourites = loadFavourites(store, eventID);
    paintFavourites();
  });
  paintFavourites();

  // Time zone: event or local.
  const localZone = localTimeZone();
  const tzSwitch = root.querySelector<HTMLElement>('.tz-switch');
  const note = root.querySelector<HTMLElement>('#tz-note');
  function applyZone(mode: 'event' | 'local', remember: boolean): void {
    const zone = mode === 'local' ? localZone : eventZone;
    for (const el of items) {
      const time = el.querySelector<HTMLElement>('time.time');
      if (time) time.textContent = formatRange(Number(el.dataset.b), Number(el.dataset.e), zone, locale);
    }
    for (const el of root.querySelectorAll<HTMLElement>('time.slot-time[data-b]')) {
      el.textContent = formatTime(Number(el.dataset.b), zone, locale);
    }
    for (const b of tzSwitch?.querySelectorAll<HTMLButtonElement>('button') ?? []) {
      b.setAttribute('aria-pressed', b.dataset.tzMode === mode ? 'true' : 'false');
    }
    if (note && root.dataset.timesIn) {
      note.textContent = root.dataset.timesIn.replace('{zone}', zoneLabel(zone, locale, Date.now() / 1000));
    }
    const url = new URL(window.location.href);
    if (mode === 'local') url.searchParams.set('tz', 'local');
    else url.searchParams.delete('tz');
    history.replaceState(history.state, '', url);
    for (const a of root.querySelectorAll<HTMLAnchorElement>('.day-tabs a, .segmented a')) {
      const u = new URL(a.href, window.location.href);
      if (mode === 'local') u.searchParams.set('tz', 'local');
      else u.searchParams.delete('tz');
      a.href = `${u.pathname}${u.search}`;
    }
    if (remember) {
      try {
        store?.setItem(TZ_KEY, mode);
      } catch {
        // not remembered
      }
    }
  }
  if (tzSwitch) {
    if (localZone !== eventZone) {
      tzSwitch.hidden = false;
      tzSwitch.addEventListener('click', (e) => {
        const b = (e.target as Element).closest<HTMLButtonElement>('button[data-tz-mode]');
        if (b) applyZone(b.dataset.tzMode === 'local' ? 'local' : 'event', true);
      });
    }
    const fromUrl = new URL(window.location.href).searchParams.get('tz');
    let saved: string | null;
    try {
      saved = store?.getItem(TZ_KEY) ?? null;
    } catch {
      saved = null;
    }
    const mode = fromUrl === 'local' || (fromUrl === null && saved === 'local') ? 'local' : 'event';
    if (mode === 'local' && localZone !== eventZone) applyZone('local', false);
  }

  // Now and next, during the event only (from a few hours before its first session to its end).
  const eventBegin = Number(root.dataset.begin) || Math.min(...items.map((el) => Number(el.dataset.b)));
  const eventEnd = Number(root.dataset.end) || Math.max(...items.map((el) => Number(el.dataset.e)));
  function markNow(): void {
    const now = Date.now() / 1000;
    if (!(now >= eventBegin - 6 * 3600 && now < eventEnd)) {
      for (const el of items) el.classList.remove('is-now', 'is-next');
      return;
    }
    let nextStart = Infinity;
    for (const el of items) {
      const b = Number(el.dataset.b);
      if (b > now && b < nextStart) nextStart = b;
    }
    for (const el of items) {
      const b = Number(el.dataset.b);
      const e = Number(el.dataset.e);
      el.classList.toggle('is-now', b <= now && now < e);
      el.classList.toggle('is-next', b === nextStart);
    }
  }
  markNow();
  window.setInterval(markNow, 60_000);

  // Arrow keys move between the sessions of the grid (Tab still walks every link and button).
  const grid = root.querySelector<HTMLTableElement>('table.grid');
  grid?.addEventListener('keydown', (e) => {
    if (!['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(e.key)) return;
    const current = (e.target as Element).closest<HTMLElement>('.cell');
    if (!current) return;
    const cells = Array.from(grid.querySelectorAll<HTMLElement>('.cell'));
    const rect = current.getBoundingClientRect();
    let best: HTMLElement | undefined;
    let bestScore = Infinity;
    for (const c of cells) {
      if (c === current) continue;
      const r = c.getBoundingClientRect();
      const dx = r.left - rect.left;
      const dy = r.top - rect.top;
      const forward =
        e.key === 'ArrowRight' ? dx > 1 : e.key === 'ArrowLeft' ? dx < -1 : e.key === 'ArrowDown' ? dy > 1 : dy < -1;
      if (!forward) continue;
      const along = e.key === 'ArrowRight' || e.key === 'ArrowLeft' ? Math.abs(dx) : Math.abs(dy);
      const across = e.key === 'ArrowRight' || e.key === 'ArrowLeft' ? Math.abs(dy) : Math.abs(dx);
      const score = along + across * 3;
      if (score < bestScore) {
        bestScore = score;
        best = c;
      }
    }
    const link = best?.querySelector<HTMLAnchorElement>('a');
    if (link) {
      e.preventDefault();
      link.focus();
    }
  });
}

const root = document.getElementById('schedule');
if (root) init(root);
