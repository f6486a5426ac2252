// The schedule page in the browser (bundled by Astro into a file; the CSP allows no inline script).
// Everything here enhances server-rendered HTML that works without it:
// - favourites: the star of each session, kept in localStorage (no login, no cookie); "my schedule"
//   (mine=1 in the URL) shows only them; the calendar link then exports them; the day tabs say which
//   days hold favourites; the count says how many sessions are shown;
// - time zone: the event's or the visitor's (zone-switch.ts);
// - now/next: the sessions running now and the next ones are marked, refreshed every minute; during the
//   event a "Now" tab shows only them (view=now), and the grid opens on today;
// - keyboard: arrow keys move between sessions of the grid.
// The visitor's clock decides what "now" is (cached pages stay right; tests set the browser's clock).

import { loadFavourites, saveFavourites, toggleFavourite } from '../shared/schedule/favourites.ts';
import { dayKey, formatRangeUnder, formatTime } from '../shared/schedule/time.ts';
import { browserStorage, zoneSwitch } from './zone-switch.ts';

/** "{count} sessions" from a template pair (data-x and data-x-one), as tp() does on the server. */
function counted(el: HTMLElement, name: string, count: number): string {
  const one = el.dataset[`${name}One`];
  const template = count === 1 && one ? one : (el.dataset[name] ?? '{count}');
  return template.replace('{count}', String(count));
}

function init(root: HTMLElement): void {
  const eventID = Number(root.dataset.event);
  const eventZone = root.dataset.tz || 'UTC';
  const locale = root.dataset.locale || 'en';
  const store = browserStorage();
  let favourites = loadFavourites(store, eventID);
  const mine = root.dataset.mine === '1';
  const view = root.dataset.view;
  // The sessions shown; live.client.ts swaps them for fresh ones ('podium:live'), and keeps a cancelled
  // one (.live-gone) in place for a while: it is shown, but no longer counted.
  let items: HTMLElement[] = [];
  const decorated = new WeakSet<HTMLElement>();
  // The favourite button and the now/next badges of each session exist only with this script.
  const favLabel = root.dataset.favLabel || '{name}';
  const decorate = () => {
    items = Array.from(root.querySelectorAll<HTMLElement>('[data-id]:not(.live-gone)'));
    for (const el of items) if (!decorated.has(el)) decorateOne(el);
  };
  function decorateOne(el: HTMLElement): void {
    decorated.add(el);
    const title = el.querySelector('a')?.textContent ?? '';
    const when = el.querySelector('.when, .cell-when');
    for (const [kind, label] of [
      ['now', root.dataset.nowLabel],
      ['next', root.dataset.nextLabel],
    ] as const) {
      const badge = document.createElement('span');
      badge.className = `badge live-badge ${kind}`;
      badge.textContent = label ?? kind;
      when?.append(badge);
    }
    if (el.classList.contains('is-break')) return; // a coffee break is no one's favourite
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'fav';
    button.dataset.fav = el.dataset.id;
    button.setAttribute('aria-pressed', 'false');
    button.setAttribute('aria-label', favLabel.replace('{name}', title));
    el.append(button);
  }
  decorate();
  const icsLink = root.querySelector<HTMLAnchorElement>('.ics-link');
  const mineEmpty = root.querySelector<HTMLElement>('.mine-empty');
  const mineElsewhere = root.querySelector<HTMLElement>('.mine-elsewhere');
  const nowEmpty = root.querySelector<HTMLElement>('.now-empty');
  const count = root.querySelector<HTMLElement>('.result-count');
  // Each day tab lists its sessions' ids, so it can say whether it holds favourites.
  const dayTabs = Array.from(root.querySelectorAll<HTMLAnchorElement>('.day-tabs a[data-ids]')).map((a) => {
    const mark = document.createElement('span');
    mark.className = 'fav-mark';
    mark.hidden = true;
    const icon = document.createElement('span');
    icon.setAttribute('aria-hidden', 'true');
    const text = document.createElement('span');
    text.className = 'visually-hidden';
    mark.append(icon, text);
    a.append(mark);
    return { a, mark, icon, text, ids: (a.dataset.ids ?? '').split(',').map(Number) };
  });

  /** Whether a session is shown by the modes the script applies (the server applied the rest). */
  const shown = (el: HTMLElement) =>
    (!mine || el.classList.contains('is-favourite')) &&
    (view !== 'now' || el.classList.contains('is-now') || el.classList.contains('is-next'));

  /** The count says what is shown: the server's number, or in "my schedule" and "now" what the script shows. */
  function paintCount(): void {
    // "Nothing now" only when "my schedule" has not said why nothing shows (no favourites, or elsewhere).
    const mineSaid = mine && (mineEmpty?.hidden === false || mineElsewhere?.hidden === false);
    if (view === 'now' && nowEmpty) nowEmpty.hidden = items.some(shown) || mineSaid;
    if (!count || !(mine || view === 'now')) return;
    count.textContent = counted(count, 'count', items.filter(shown).length);
  }

  function paintFavourites(): void {
    for (const el of items) {
      const on = favourites.has(Number(el.dataset.id));
      el.classList.toggle('is-favourite', on);
      el.querySelector<HTMLButtonElement>('.fav')?.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
    for (const block of root.querySelectorAll<HTMLElement>('.day-block')) {
      block.classList.toggle('has-favourite', block.querySelector('.is-favourite') !== null);
    }
    for (const tab of dayTabs) {
      const n = tab.ids.filter((id) => favourites.has(id)).length;
      tab.mark.hidden = n === 0;
      tab.a.classList.toggle('has-favourite', n > 0);
      tab.icon.textContent = `★${n}`;
      tab.text.textContent = ` (${counted(root, 'favCount', n)})`;
    }
    if (mine) {
      // None shown: "no favourites yet", or (some on another day, or filtered out) where they are; the
      // empty grid goes, so the message is where the sessions would be.
      const none = !items.some((el) => el.classList.contains('is-favourite'));
      const elsewhere = none && dayTabs.some((tab) => tab.ids.some((id) => favourites.has(id)));
      if (mineEmpty) mineEmpty.hidden = !none || elsewhere;
      if (mineElsewhere) mineElsewhere.hidden = !elsewhere;
      root.classList.toggle('mine-none', none);
    }
    if (icsLink) {
      if (mine) {
        const ids = [...favourites].sort((a, b) => a - b).join(',');
        icsLink.href = `${root.dataset.icsBase}?ids=${ids || '0'}`;
      } else if (root.dataset.ics) icsLink.href = root.dataset.ics;
    }
    paintCount();
  }

  /** The stars on screen (in "my schedule" an unstarred session is hidden, its star with it). */
  const starsShown = () =>
    Array.from(root.querySelectorAll<HTMLButtonElement>('button.fav')).filter((b) => b.getClientRects().length > 0);

  root.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('button.fav');
    if (!button) return;
    const at = mine ? starsShown().indexOf(button) : -1;
    favourites = toggleFavourite(favourites, Number(button.dataset.fav));
    saveFavourites(store, eventID, favourites);
    paintFavourites();
    // Its session just left "my schedule": the focus goes to the star that takes its place, else the one
    // before, else the message of an empty view — not to <body>, back at the top of the page.
    if (at >= 0 && button.getClientRects().length === 0) {
      const stars: (HTMLButtonElement | undefined)[] = starsShown(); // [at] and [at - 1] may be past its ends
      const next = stars[at] ?? stars[at - 1] ?? [mineEmpty, mineElsewhere].find((el) => el && !el.hidden);
      if (next && !(next instanceof HTMLButtonElement)) next.tabIndex = -1;
      next?.focus();
    }
    // The notifications switch (push.client.ts) tells the platform the new list.
    root.dispatchEvent(new CustomEvent('favourites-change'));
  });
  // Another tab changed the favourites.
  window.addEventListener('storage', () => {
    favourites = loadFavourites(store, eventID);
    paintFavourites();
  });
  paintFavourites();

  let zone = eventZone;
  // Sessions stay under the event's days; in the visitor's zone one past their midnight names its own day
  // (a grid's time slots stay times: the narrow column has no room for a day, its sessions name it).
  const repaint = () => {
    for (const el of items) {
      const time = el.querySelector<HTMLElement>('time.time');
      if (time)
        time.textContent = formatRangeUnder(Number(el.dataset.b), Number(el.dataset.e), zone, eventZone, locale);
    }
    for (const el of root.querySelectorAll<HTMLElement>('time.slot-time[data-b]')) {
      el.textContent = formatTime(Number(el.dataset.b), zone, locale);
    }
  };
  zoneSwitch({
    root,
    eventZone,
    locale,
    storage: store,
    paint(z) {
      zone = z;
      repaint();
    },
    links: () => root.querySelectorAll<HTMLAnchorElement>('.day-tabs a, .segmented a'),
    span: [Number(root.dataset.begin), Number(root.dataset.end)],
  });

  // Now and next, during the event only (from a few hours before its first session to its end).
  const eventBegin = Number(root.dataset.begin) || Math.min(...items.map((el) => Number(el.dataset.b)));
  const eventEnd = Number(root.dataset.end) || Math.max(...items.map((el) => Number(el.dataset.e)));
  const during = (now: number) => now >= eventBegin - 6 * 3600 && now < eventEnd;
  const nowTab = root.querySelector<HTMLElement>('.now-tab');
  function markNow(): void {
    const now = Date.now() / 1000;
    const live = during(now);
    if (nowTab) nowTab.hidden = !live && view !== 'now';
    let nextStart = Infinity;
    // A page of one day holds the program's next sessions only if no earlier day has one still to begin
    // (tomorrow's first slot is not "next" while today's afternoon is to come).
    const day = dayTabs.find((t) => t.a.getAttribute('aria-current') === 'page')?.a.dataset.day;
    const earlier = day !== undefined && dayTabs.some((t) => t.a.dataset.day! < day && Number(t.a.dataset.last) > now);
    if (live && !earlier) {
      for (const el of items) {
        const b = Number(el.dataset.b);
        if (b > now && b < nextStart) nextStart = b;
      }
    }
    for (const el of items) {
      const b = Number(el.dataset.b);
      const e = Number(el.dataset.e);
      el.classList.toggle('is-now', live && b <= now && now < e);
      el.classList.toggle('is-next', live && b === nextStart);
    }
    paintCount();
  }
  markNow();
  window.setInterval(markNow, 60_000);

  // A live update (live.client.ts) put fresh sessions in: the same decoration as at load.
  document.addEventListener('podium:live', () => {
    decorate();
    paintFavourites();
    repaint();
    markNow();
  });

  // During the event the grid opens on today (the server's clock chose a day; a cached page may be older).
  const url = new URL(window.location.href);
  if (view === 'grid' && !url.searchParams.has('day') && during(Date.now() / 1000)) {
    const today = dayKey(Date.now() / 1000, eventZone);
    const tab = dayTabs.find((t) => t.a.dataset.day === today);
    if (tab && tab.a.getAttribute('aria-current') !== 'page') window.location.replace(tab.a.href);
  }

  // Arrow keys move between the sessions of the grid (Tab still walks every link and button).
  // (On the root: live updates swap the grid for a fresh one.)
  root.addEventListener('keydown', (e) => {
    if (!['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(e.key)) return;
    const grid = (e.target as Element).closest<HTMLTableElement>('table.grid');
    const current = (e.target as Element).closest<HTMLElement>('.cell');
    if (!grid || !current) return;
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

/**
 * The schedule's controls are plain links and a GET form that work without this script. The page they
 * load puts the focus where the visitor was — on the count of what the filters found, or on the link
 * now current in the day tabs or view switch that was used (as tabs keep it) — rather than on <body> at
 * the top, where the keyboard would start over through the header. An empty search is left out of the
 * URL (`?q=&tag=3` → `?tag=3`).
 */
function keepFocus(root: HTMLElement, store: Storage | undefined): void {
  const form = root.querySelector<HTMLFormElement>('details.filters form');
  form?.addEventListener('formdata', (e) => {
    if (e.formData.get('q') === '') e.formData.delete('q');
  });
  form?.addEventListener('submit', () => store?.setItem(REFOCUS, COUNT));
  for (const nav of root.querySelectorAll<HTMLElement>(NAVS))
    nav.addEventListener('click', (e) => {
      // (A click that opens another tab or window leaves this page's focus as it is.)
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      if ((e.target as Element).closest('a')) store?.setItem(REFOCUS, nav.getAttribute('aria-label') ?? '');
    });
  const at = store?.getItem(REFOCUS);
  if (!at) return;
  store!.removeItem(REFOCUS);
  const target =
    at === COUNT
      ? root.querySelector<HTMLElement>('.result-count')
      : [...root.querySelectorAll<HTMLElement>(NAVS)]
          .find((nav) => nav.getAttribute('aria-label') === at)
          ?.querySelector<HTMLElement>('a[aria-current="page"]');
  if (!target) return;
  if (target.tagName !== 'A') target.tabIndex = -1;
  target.focus();
}
const REFOCUS = 'podium:refocus';
const COUNT = '.result-count';
const NAVS = 'nav.day-tabs, nav.segmented';

const root = document.getElementById('schedule');
if (root) {
  init(root);
  let session: Storage | undefined;
  try {
    session = window.sessionStorage;
  } catch {
    session = undefined; // storage refused (a privacy setting): the form works as it is
  }
  keepFocus(root, session);
}
