// A session's page in the browser: its favourite star (the same localStorage key as the schedule's, so a
// star set here shows there) and "Event time / My time" (the same remembered choice as the schedule's).
// The zone switch and the note sit outside the heading block, so the script looks them up in <main>.

import { loadFavourites, saveFavourites, toggleFavourite } from '../shared/schedule/favourites.ts';
import { dayKey, formatDay, formatRange } from '../shared/schedule/time.ts';
import { browserStorage, zoneSwitch } from './zone-switch.ts';

function init(head: HTMLElement): void {
  const eventID = Number(head.dataset.event);
  const id = Number(head.dataset.id);
  const locale = head.dataset.locale || 'en';
  const store = browserStorage();
  const star = head.querySelector<HTMLButtonElement>('button.fav');
  if (star) {
    const paint = () => star.setAttribute('aria-pressed', loadFavourites(store, eventID).has(id) ? 'true' : 'false');
    star.hidden = false;
    star.addEventListener('click', () => {
      saveFavourites(store, eventID, toggleFavourite(loadFavourites(store, eventID), id));
      paint();
    });
    window.addEventListener('storage', paint);
    paint();
  }
  const article = head.closest<HTMLElement>('article') ?? document.body;
  // The switch reads the note's template from the root it is given.
  article.dataset.timesIn = head.dataset.timesIn;
  let zone = head.dataset.tz || 'UTC';
  const paint = () => {
    for (const time of article.querySelectorAll<HTMLElement>('time.session-when[data-b]')) {
      const b = Number(time.dataset.b);
      const e = Number(time.dataset.e);
      time.textContent = `${formatDay(dayKey(b, zone), zone, locale, 'long')}, ${formatRange(b, e, zone, locale)}`;
    }
  };
  const spanOf = (t: HTMLElement | null) =>
    t ? ([Number(t.dataset.b), Number(t.dataset.e) || Number(t.dataset.b)] as const) : undefined;
  zoneSwitch({
    root: article,
    eventZone: zone,
    locale,
    storage: store,
    paint(z) {
      zone = z;
      paint();
    },
    links: () => article.querySelectorAll<HTMLAnchorElement>('a[href*="/schedule"]:not([download])'),
    span: spanOf(article.querySelector<HTMLElement>('time.session-when[data-b]')),
  });
  // A live update (live.client.ts) put the fresh time in: shown in the visitor's choice of zone.
  document.addEventListener('podium:live', paint);
}

const head = document.getElementById('session');
if (head) init(head);
