// "Event time / My time" in the browser, for the schedule and the session pages (one piece for both):
// shows the switch when the visitor's clock differs from the event's over the times the page shows (a
// visitor in UTC at a Lisbon event in winter reads the same times: no switch), opens in the mode
// chosenZoneMode gives, re-labels the page's times through `paint`, says the zone in the note, keeps
// `tz=local` in the URL and in the page's own links, and remembers the choice.

import { chosenZoneMode, rememberZoneMode, type ZoneMode } from '../shared/schedule/zone-choice.ts';
import { localTimeZone, sameClock, zoneLabel } from '../shared/schedule/time.ts';

export interface ZoneSwitchOptions {
  root: HTMLElement;
  eventZone: string;
  locale: string;
  storage: Storage | undefined;
  /** Re-labels the page's times in `zone`. */
  paint: (zone: string) => void;
  /** Links that carry the choice on (`tz=local` added or removed). */
  links?: () => Iterable<HTMLAnchorElement>;
  /** The first and last times the page shows (Unix seconds); left out, the zones' names decide. */
  span?: readonly [number, number];
}

/** Sets the switch up; answers the zone the page opened in. */
export function zoneSwitch(o: ZoneSwitchOptions): string {
  const localZone = localTimeZone();
  const tzSwitch = o.root.querySelector<HTMLElement>('.tz-switch');
  const note = o.root.querySelector<HTMLElement>('.tz-note');
  const timesIn = o.root.dataset.timesIn;

  function apply(mode: ZoneMode, remember: boolean): string {
    const zone = mode === 'local' ? localZone : o.eventZone;
    o.paint(zone);
    for (const b of tzSwitch?.querySelectorAll<HTMLButtonElement>('button') ?? []) {
      b.setAttribute('aria-pressed', b.dataset.tzMode === mode ? 'true' : 'false');
    }
    if (note && timesIn) note.textContent = timesIn.replace('{zone}', zoneLabel(zone, o.locale, Date.now() / 1000));
    const withMode = (u: URL) => {
      if (mode === 'local') u.searchParams.set('tz', 'local');
      else u.searchParams.delete('tz');
      return u;
    };
    history.replaceState(history.state, '', withMode(new URL(window.location.href)));
    for (const a of o.links?.() ?? []) {
      const u = withMode(new URL(a.href, window.location.href));
      a.href = `${u.pathname}${u.search}`;
    }
    if (remember) rememberZoneMode(o.storage, mode);
    return zone;
  }

  if (!tzSwitch || sameClock(localZone, o.eventZone, o.span)) return o.eventZone;
  tzSwitch.hidden = false;
  tzSwitch.addEventListener('click', (e) => {
    const b = (e.target as Element).closest<HTMLButtonElement>('button[data-tz-mode]');
    if (b) apply(b.dataset.tzMode === 'local' ? 'local' : 'event', true);
  });
  const mode = chosenZoneMode(new URL(window.location.href).searchParams, o.storage);
  return mode === 'local' ? apply('local', false) : o.eventZone;
}

/** localStorage, or undefined where it is blocked (private modes, sandboxed frames). */
export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
