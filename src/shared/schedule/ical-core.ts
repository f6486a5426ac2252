// The program as an iCalendar file (RFC 5545) for "Download calendar": one VEVENT per session, in the
// event's time zone (a VTIMEZONE computed with Intl, so calendars show the right local times before and
// after DST changes), CRLF line endings and 75-octet folding.
//
// What needs the zone and text helpers (time.ts, text.ts) is made by calendarOf from the helpers it is
// handed, so that this module imports neither: the agenda widget hands its own to its lazily loaded
// calendar chunk, and the build keeps them in the agenda's chunk instead of a chunk the two would share.
// ical.ts binds them for the site and the tests.

import type { Session } from './program.ts';
import type { htmlToText } from './text.ts';
import type { offsetMinutes, safeTimeZone, zonedParts } from './time.ts';

/** The helpers of time.ts and text.ts the calendar needs. */
export interface CalendarHelpers {
  htmlToText: typeof htmlToText;
  offsetMinutes: typeof offsetMinutes;
  safeTimeZone: typeof safeTimeZone;
  zonedParts: typeof zonedParts;
}

export interface ICalendarInput {
  /** X-WR-CALNAME: the name calendars show (the event's name). */
  calendarName: string;
  /** The event's IANA zone; DTSTART/DTEND are local times in it. */
  timeZone: string;
  sessions: readonly Session[];
  /** The session's page, written as URL (and at the end of DESCRIPTION). */
  urlOf?: (s: Session) => string;
  /** UIDs are `activity-<activityID>@<uidDomain>`: stable, so re-importing updates instead of duplicating. */
  uidDomain: string;
  /** DTSTAMP, Unix seconds. */
  now: number;
  /** The venue, appended to the room in LOCATION ("Room 1, Venue"). */
  location?: string;
  /** The label before the speakers' names in DESCRIPTION (default "Speakers"). */
  speakersLabel?: string;
}

const CRLF = '\r\n';

/** TEXT value escaping (RFC 5545 §3.3.11): \ ; , and newlines; other control characters dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- control characters are not allowed in TEXT values
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\n/g, '\\n')
  );
}

/** UTF-8 length of one code point. */
function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/**
 * Folds a content line to at most 75 octets per line (RFC 5545 §3.1): continuation lines begin with one
 * space. Splits only between code points, never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  if (line.length <= 25) return line; // at most 3 octets per UTF-16 unit: fits
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = utf8Length(ch.codePointAt(0)!);
    if (octets + size > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join(CRLF);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** YYYYMMDDTHHMMSSZ of a Unix time. */
export function utcStamp(unix: number): string {
  const d = new Date(Math.floor(unix) * 1000);
  return (
    `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
}

/** +HHMM / -HHMM of an offset in minutes ('+0000' for zero: -0000 is not allowed). */
export function utcOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** A change of a zone's offset: at `at` (Unix seconds) the offset goes from `from` to `to` minutes. */
export interface ZoneTransition {
  at: number;
  from: number;
  to: number;
}

const DAY = 86_400;

function safeUri(value: string): string {
  // eslint-disable-next-line no-control-regex -- a URI value must not hold controls or spaces
  return value.replace(/[\u0000-\u001f\u007f\s]/g, '');
}

/** The calendar's functions that need the zone and text helpers, made with `helpers`. */
export function calendarOf(helpers: CalendarHelpers) {
  const { htmlToText, offsetMinutes, safeTimeZone, zonedParts } = helpers;

  /** YYYYMMDDTHHMMSS: the wall-clock time of `unix` in `timeZone`. */
  function localStamp(unix: number, timeZone: string): string {
    const p = zonedParts(Math.floor(unix), timeZone);
    return `${pad(p.year, 4)}${pad(p.month)}${pad(p.day)}T${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
  }

  /**
   * The offset changes of `timeZone` in [start, end) (Unix seconds), found by sampling the offset every 12
   * hours and bisecting each change to the second. (Zones change at most a few times a year, never twice
   * within 12 hours.)
   */
  function zoneTransitions(timeZone: string, start: number, end: number): ZoneTransition[] {
    const out: ZoneTransition[] = [];
    let t = start;
    let offset = offsetMinutes(t, timeZone);
    while (t < end) {
      const u = Math.min(t + DAY / 2, end);
      const next = offsetMinutes(u, timeZone);
      if (next !== offset) {
        let lo = t; // offset at lo is `offset`
        let hi = u; // offset at hi is `next`
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (offsetMinutes(mid, timeZone) === offset) lo = mid;
          else hi = mid;
        }
        out.push({ at: hi, from: offset, to: next });
        offset = next;
      }
      t = u;
    }
    return out;
  }

  function yearStart(year: number, timeZone: string): number {
    timeZone = safeTimeZone(timeZone);
    const utc = Date.UTC(year, 0, 1) / 1000;
    return utc - offsetMinutes(utc, timeZone) * 60;
  }

  /**
   * A VTIMEZONE for `timeZone` covering the whole years `fromYear`..`toYear`: a first observance from
   * 1 January of `fromYear`, then one STANDARD or DAYLIGHT sub-component per offset change (DAYLIGHT when
   * the offset moves forward), each with its local DTSTART (in the offset before the change). A zone without
   * changes gets a single STANDARD.
   */
  function vtimezone(
    timeZone: string,
    fromYear: number,
    toYear: number,
    transitions = zoneTransitions(
      safeTimeZone(timeZone),
      yearStart(fromYear, timeZone),
      yearStart(toYear + 1, timeZone),
    ),
  ): string[] {
    const zone = safeTimeZone(timeZone);
    const start = yearStart(fromYear, zone);
    const initial = offsetMinutes(start, zone);
    const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
    const firstKind = transitions.length > 0 && transitions[0].to < transitions[0].from ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${firstKind}`,
      `DTSTART:${localStamp(start, zone)}`,
      `TZOFFSETFROM:${utcOffset(initial)}`,
      `TZOFFSETTO:${utcOffset(initial)}`,
      `END:${firstKind}`,
    );
    for (const tr of transitions) {
      const kind = tr.to > tr.from ? 'DAYLIGHT' : 'STANDARD';
      lines.push(
        `BEGIN:${kind}`,
        // local time just before the change, in the old offset
        `DTSTART:${localStamp(tr.at + tr.from * 60, 'UTC')}`,
        `TZOFFSETFROM:${utcOffset(tr.from)}`,
        `TZOFFSETTO:${utcOffset(tr.to)}`,
        `END:${kind}`,
      );
    }
    lines.push('END:VTIMEZONE');
    return lines;
  }

  /**
   * `NAME;TZID=zone:local` — or `NAME:…Z` in UTC during the second pass through a repeated hour after a
   * change back (DST ending), where a local time would mean the first pass (RFC 5545 §3.3.5).
   */
  function dateTime(name: string, unix: number, zone: string, transitions: readonly ZoneTransition[]): string {
    const t = Math.floor(unix);
    const repeated = transitions.some((tr) => tr.to < tr.from && tr.at <= t && t < tr.at + (tr.from - tr.to) * 60);
    return repeated ? `${name}:${utcStamp(t)}` : `${name};TZID=${zone}:${localStamp(t, zone)}`;
  }

  /** One session's DESCRIPTION: its text, the speakers, the link. */
  function describe(s: Session, url: string, speakersLabel: string): string {
    const parts: string[] = [];
    const text = htmlToText(s.description);
    if (text) parts.push(text);
    const names = s.speakers.map((p) => p.name.trim()).filter(Boolean);
    if (names.length > 0) parts.push(`${speakersLabel}: ${names.join(', ')}`);
    if (url) parts.push(url);
    return parts.join('\n\n');
  }

  /** The whole calendar (RFC 5545, CRLF line endings, folded), sessions in the given order. */
  function toICalendar(input: ICalendarInput): string {
    const zone = safeTimeZone(input.timeZone);
    const uidDomain = safeUri(input.uidDomain) || 'podium.invalid';
    const years = input.sessions.flatMap((s) => [zonedParts(s.dateBegin, zone).year, zonedParts(s.dateEnd, zone).year]);
    const nowYear = zonedParts(input.now, zone).year;
    const fromYear = years.length > 0 ? Math.min(...years) : nowYear;
    const toYear = years.length > 0 ? Math.max(...years) : nowYear;
    const transitions = zoneTransitions(zone, yearStart(fromYear, zone), yearStart(toYear + 1, zone));

    const lines = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Podium//Podium Schedule//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      `X-WR-CALNAME:${escapeText(input.calendarName)}`,
      `X-WR-TIMEZONE:${zone}`,
      ...vtimezone(zone, fromYear, toYear, transitions),
    ];
    const stamp = utcStamp(input.now);
    const venue = (input.location ?? '').trim();
    const speakersLabel = input.speakersLabel ?? 'Speakers';
    for (const s of input.sessions) {
      const url = input.urlOf ? safeUri(input.urlOf(s)) : '';
      const where = [s.location.trim(), venue].filter(Boolean).join(', ');
      lines.push(
        'BEGIN:VEVENT',
        `UID:activity-${s.activityID}@${uidDomain}`,
        `DTSTAMP:${stamp}`,
        dateTime('DTSTART', s.dateBegin, zone, transitions),
      );
      if (s.dateEnd > s.dateBegin) lines.push(dateTime('DTEND', s.dateEnd, zone, transitions));
      lines.push(`SUMMARY:${escapeText(s.name.trim() || `#${s.activityID}`)}`);
      const description = describe(s, url, speakersLabel);
      if (description) lines.push(`DESCRIPTION:${escapeText(description)}`);
      if (where) lines.push(`LOCATION:${escapeText(where)}`);
      const categories = s.tags.map((t) => t.name.trim()).filter(Boolean);
      if (categories.length > 0) lines.push(`CATEGORIES:${categories.map(escapeText).join(',')}`);
      if (url) lines.push(`URL:${url}`);
      lines.push('END:VEVENT');
    }
    lines.push('END:VCALENDAR');
    return lines.map(foldLine).join(CRLF) + CRLF;
  }

  return { localStamp, zoneTransitions, vtimezone, toICalendar };
}
