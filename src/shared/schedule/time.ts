// Time in an event's time zone, with Intl only. Every Intl.DateTimeFormat is built once per
// (zone, locale, options) and reused: the site formats hundreds of items per page. An unknown zone or
// locale falls back to UTC / English instead of throwing.

const formats = new Map<string, Intl.DateTimeFormat>();
const validZones = new Map<string, string>();

/** `timeZone` if Intl knows it (canonical spelling kept as given), else 'UTC'. */
export function safeTimeZone(timeZone: string | undefined | null): string {
  const zone = typeof timeZone === 'string' && timeZone !== '' ? timeZone : 'UTC';
  let known = validZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      known = zone;
    } catch {
      known = 'UTC';
    }
    validZones.set(zone, known);
  }
  return known;
}

/**
 * The Intl locale used for an app locale: plain 'en' formats as international English (en-GB: "Monday 21
 * December", 24-hour clock) rather than US English; any other tag ('en-US', 'pt-PT', 'es-MX') is used as
 * given.
 */
export function intlLocale(locale: string): string {
  return locale === 'en' ? 'en-GB' : locale;
}

const byOptions = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

/**
 * A cached Intl.DateTimeFormat for this zone, locale and options (bad zone → UTC, bad locale → English;
 * see intlLocale). Pass the same options object each time (a module constant) for the fastest lookup.
 */
export function dateTimeFormat(
  timeZone: string,
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  let byZone = byOptions.get(options);
  if (byZone === undefined) byOptions.set(options, (byZone = new Map()));
  const short = `${timeZone}|${locale}`;
  let format = byZone.get(short);
  if (format === undefined) {
    const zone = safeTimeZone(timeZone);
    const key = `${zone}|${locale}|${JSON.stringify(options)}`;
    format = formats.get(key);
    if (format === undefined) {
      try {
        format = new Intl.DateTimeFormat(intlLocale(locale), { ...options, timeZone: zone });
      } catch {
        format = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone });
      }
      formats.set(key, format);
    }
    byZone.set(short, format);
  }
  return format;
}

const PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

/** Wall-clock fields of a Unix time in a zone (month 1..12, hour 0..23). */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * Answers of zonedParts by zone and time: a program's page asks for the same few hundred start and end
 * times at every render, and formatToParts was the site's costliest call of its own in a cold render's
 * profile. Emptied when full (a program's times are few; a full map means a long-running mix of events).
 */
const partsMemo = new Map<string, ZonedParts>();
const PARTS_MEMO_MAX = 20_000;

/** The wall-clock date and time of `unix` (seconds) in `timeZone`. */
export function zonedParts(unix: number, timeZone: string): ZonedParts {
  const key = `${timeZone}|${unix}`;
  const known = partsMemo.get(key);
  if (known) return { ...known };
  const out: ZonedParts = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of dateTimeFormat(timeZone, 'en-US', PARTS).formatToParts(unix * 1000)) {
    if (part.type in out) out[part.type as keyof ZonedParts] = Number(part.value);
  }
  if (out.hour === 24) out.hour = 0; // some engines still say 24:00 for midnight
  if (partsMemo.size >= PARTS_MEMO_MAX) partsMemo.clear();
  partsMemo.set(key, out);
  return { ...out };
}

/** The zone's offset from UTC at `unix`, in minutes (Lisbon in summer: 60; São Paulo: -180). */
export function offsetMinutes(unix: number, timeZone: string): number {
  const p = zonedParts(Math.floor(unix), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000;
  return Math.round((asUtc - Math.floor(unix)) / 60);
}

/**
 * Whether two zones say the same clock time at both ends of a span (an event: days, rarely a DST
 * change): a visitor in UTC at a Lisbon event in winter reads the same times. Without a span, whether
 * they are the same zone.
 */
export function sameClock(a: string, b: string, span: readonly [number, number] | undefined): boolean {
  if (a === b) return true;
  if (!span || !span.every((t) => Number.isFinite(t) && t > 0)) return false;
  return span.every((t) => offsetMinutes(t, a) === offsetMinutes(t, b));
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** The calendar day of `unix` in `timeZone`, as YYYY-MM-DD. */
export function dayKey(unix: number, timeZone: string): string {
  const p = zonedParts(unix, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a YYYY-MM-DD of a real calendar day. */
export function isDayKey(value: string): boolean {
  const m = DAY_KEY.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * The Unix time of a wall-clock time in a zone. A time skipped by a DST jump resolves to the instant after
 * the jump's offset change (02:30 on a spring-forward night → 03:30); a repeated time resolves to its first
 * occurrence.
 */
export function zonedToUnix(p: ZonedParts, timeZone: string): number {
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000;
  // The offsets in force around that moment (a day before and after covers any transition).
  const before = offsetMinutes(asUtc - 86_400, timeZone);
  const offsets = new Set([before, offsetMinutes(asUtc, timeZone), offsetMinutes(asUtc + 86_400, timeZone)]);
  let best = Infinity;
  for (const o of offsets) {
    const u = asUtc - o * 60;
    if (offsetMinutes(u, timeZone) === o && u < best) best = u;
  }
  // No match: the time was skipped by a jump forward; read it with the offset before the jump.
  return best === Infinity ? asUtc - before * 60 : best;
}

/** The Unix time when day `dayKey` (YYYY-MM-DD) begins in `timeZone`. */
export function startOfDay(day: string, timeZone: string): number {
  const m = DAY_KEY.exec(day);
  if (!m) return NaN;
  return zonedToUnix({ year: +m[1], month: +m[2], day: +m[3], hour: 0, minute: 0, second: 0 }, timeZone);
}

const TIME_24: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
const TIME_LOCALE: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/**
 * A time of day in `timeZone`: 24-hour HH:MM by default (compact in a grid, and what pt, es and most
 * English-reading event audiences expect); `style: 'locale'` follows the locale instead (en-US: 9:00 AM).
 */
export function formatTime(unix: number, timeZone: string, locale: string, style: '24h' | 'locale' = '24h'): string {
  return dateTimeFormat(timeZone, locale, style === '24h' ? TIME_24 : TIME_LOCALE).format(unix * 1000);
}

const DAY_LONG: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' };
const DAY_SHORT: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };

/**
 * A calendar day (YYYY-MM-DD) for people, in the locale's own order: "Monday 21 December" / "Mon 21 Dec"
 * (en), "segunda-feira, 21 de dezembro" (pt), "lunes, 21 de diciembre" (es); style 'long' or 'short'. The day is a calendar date, so the zone does not shift it; `timeZone` is accepted
 * for symmetry. An invalid key is returned as is.
 */
export function formatDay(day: string, _timeZone: string, locale: string, style: 'long' | 'short' = 'long'): string {
  const m = DAY_KEY.exec(day);
  if (!m) return day;
  const noon = Date.UTC(+m[1], +m[2] - 1, +m[3], 12);
  return dateTimeFormat('UTC', locale, style === 'long' ? DAY_LONG : DAY_SHORT).format(noon);
}

const DATE_LONG: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };

/** A day and year, for event dates: "21 December 2025", "21 de dezembro de 2025". */
export function formatDate(unix: number, timeZone: string, locale: string): string {
  return dateTimeFormat(timeZone, locale, DATE_LONG).format(unix * 1000);
}

/**
 * The day a span ends on: an end at midnight (00:00 of the next day) closes the day before, so a session
 * until midnight is not read as running into the next day.
 */
const endDayKey = (end: number, timeZone: string) => dayKey(end - 1, timeZone);

/**
 * A session's time span in `timeZone`: "09:00–10:30" on one day, "23:15–00:00" until midnight;
 * "Mon 21 Dec 22:00 – Tue 22 Dec 01:00" across days. A missing or earlier end gives just the start time.
 */
export function formatRange(begin: number, end: number, timeZone: string, locale: string): string {
  if (!(end > begin)) return formatTime(begin, timeZone, locale);
  const a = dayKey(begin, timeZone);
  const b = endDayKey(end, timeZone);
  if (a === b) return `${formatTime(begin, timeZone, locale)}–${formatTime(end, timeZone, locale)}`;
  return (
    `${formatDay(a, timeZone, locale, 'short')} ${formatTime(begin, timeZone, locale)} – ` +
    `${formatDay(b, timeZone, locale, 'short')} ${formatTime(end, timeZone, locale)}`
  );
}

/**
 * A session's span in `timeZone` under a heading of its day in `headingZone` (the schedule groups sessions
 * by the event's days): the span alone when both zones put it on that day, else with its own day first —
 * "Wed 30 Dec, 05:15–06:00" — so a session past the visitor's midnight does not read as the heading's day.
 * (A span across days names its days already.)
 */
export function formatRangeUnder(
  begin: number,
  end: number,
  timeZone: string,
  headingZone: string,
  locale: string,
): string {
  const range = formatRange(begin, end, timeZone, locale);
  const day = dayKey(begin, timeZone);
  if (day === dayKey(begin, headingZone) || (end > begin && endDayKey(end, timeZone) !== day)) return range;
  return `${formatDay(day, timeZone, locale, 'short')}, ${range}`;
}

/** The viewer's time zone (the browser's or the server's), 'UTC' when unknown. */
export function localTimeZone(): string {
  try {
    return safeTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone);
  } catch {
    return 'UTC';
  }
}

/** "GMT+1", "GMT-3", "GMT+5:30", "GMT+0": the offset of `timeZone` at `at`. */
export function offsetLabel(timeZone: string, at: number): string {
  const minutes = offsetMinutes(at, timeZone);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `GMT${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${pad(abs % 60)}` : ''}`;
}

/**
 * A zone for people: "Lisbon (GMT+0)", "New York (GMT-5)", "UTC" — the city of the IANA name and the
 * offset at `at` (Unix seconds; the offset changes with DST). Intl has no localized city names, so
 * `locale` only affects the generic fallback.
 */
export function zoneLabel(timeZone: string, _locale: string, at: number): string {
  const zone = safeTimeZone(timeZone);
  if (zone === 'UTC' || zone === 'Etc/UTC' || zone === 'Etc/GMT') return 'UTC';
  const city = zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ');
  return `${city} (${offsetLabel(zone, at)})`;
}
