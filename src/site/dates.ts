// Date strings the pages show on every render, remembered: Intl's formatToParts costs tens of
// microseconds a call, and a page needs the same few day labels and zone names each time.

import { LRUCache } from 'lru-cache';
import { dayKey, formatDay, zoneLabel } from '../shared/schedule/time.ts';

const labels = new LRUCache<string, string>({ max: 10_000 });

function remember(key: string, make: () => string): string {
  let value = labels.get(key);
  if (value === undefined) {
    value = make();
    labels.set(key, value);
  }
  return value;
}

/** formatDay, remembered (a calendar day's label never changes). */
export function dayLabel(day: string, timeZone: string, locale: string, style: 'long' | 'short' = 'long'): string {
  return remember(`d|${day}|${locale}|${style}`, () => formatDay(day, timeZone, locale, style));
}

/** zoneLabel at `at`, remembered per hour (offsets change on the hour at most). */
export function zoneName(timeZone: string, locale: string, at: number): string {
  const hour = Math.floor(at / 3600);
  return remember(`z|${timeZone}|${locale}|${hour}`, () => zoneLabel(timeZone, locale, hour * 3600));
}

const todays = new Map<string, { day: string; until: number }>();

/** Today (YYYY-MM-DD) in a zone, recomputed once a minute. */
export function today(timeZone: string, nowSeconds: number): string {
  const known = todays.get(timeZone);
  if (known && known.until > nowSeconds) return known.day;
  const day = dayKey(nowSeconds, timeZone);
  todays.set(timeZone, { day, until: Math.floor(nowSeconds / 60) * 60 + 60 });
  return day;
}
