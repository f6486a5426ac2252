// A company's public events as its directory and the platform's home list them: the ones happening now
// and upcoming first (soonest first), then the past ones (latest first). The platform's public
// company.event.find already leaves out private, hidden, archived events and templates.

import type { EventListItem } from '../client/index.ts';
import { t, type Locale } from '../shared/i18n/messages.ts';
import { dayKey, formatDate, safeTimeZone } from '../shared/schedule/time.ts';

export interface EventGroups {
  visible: EventListItem[];
  upcoming: EventListItem[];
  past: EventListItem[];
}

/** `now` in Unix seconds. */
export function groupEvents(events: readonly EventListItem[], now: number): EventGroups {
  const visible = events.filter((e) => e.public === '1' && e.visible !== '0');
  const upcoming = visible
    .filter((e) => Number(e.dateEnd) >= now || Number(e.dateEnd) === 0)
    .sort((a, b) => Number(a.dateBegin) - Number(b.dateBegin));
  const past = visible.filter((e) => !upcoming.includes(e)).sort((a, b) => Number(b.dateBegin) - Number(a.dateBegin));
  return { visible, upcoming, past };
}

/** An event's dates in its own zone: one day, or first and last day. */
export function listDates(e: EventListItem, locale: Locale): string {
  const tz = safeTimeZone(e.timezone);
  const b = Number(e.dateBegin);
  const en = Number(e.dateEnd);
  if (!(b > 0)) return '';
  const first = formatDate(b, tz, locale);
  return en > b && dayKey(b, tz) !== dayKey(en, tz)
    ? t(locale, 'event.dates', { start: first, end: formatDate(en, tz, locale) })
    : first;
}

/** An event's address on the platform's host. */
export const eventHref = (namespace: string, e: EventListItem) =>
  `/${encodeURIComponent(namespace)}/${encodeURIComponent(e.nickname)}`;
