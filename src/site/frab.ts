// The program for conference apps (Giggity, ConfClerk, EventFahrplan, …): the frab/pentabarf schedule
// as XML (schedule.xml) and as frab's JSON (schedule.json), the two formats pretalx and frab publish.
// Both are made from one model (days → rooms → sessions) so they always say the same thing, and are
// written to validate against the C3VOC schemas (github.com/voc/schedule, validator/; vendored in
// tests/fixtures/frab/, where the tests check every answer against them).

import { createHash } from 'node:crypto';
import type { Session } from '../shared/schedule/program.ts';
import { byDay, compareRooms } from '../shared/schedule/group.ts';
import { htmlToText } from '../shared/schedule/text.ts';
import { dayKey, startOfDay, zonedParts } from '../shared/schedule/time.ts';
import { isoInZone } from './program.ts';

export interface FrabInput {
  title: string;
  /** The event's nickname: the acronym is made from it. */
  nickname: string;
  description: string;
  /** The event's dates (Unix seconds, 0 = not set: the sessions' span is used). */
  dateBegin: number;
  dateEnd: number;
  timeZone: string;
  /** ISO 639-1 language of the sessions. */
  language: string;
  sessions: readonly Session[];
  /** Absolute addresses: the event's home, the export itself, a session's and a speaker's page. */
  homeUrl: string;
  scheduleUrl: string;
  sessionUrl: (id: number) => string;
  speakerUrl: (id: number) => string;
  /** The room of sessions without one (the site's "Other"). */
  noRoom: string;
  /** Unix seconds: the day shown when the event has neither dates nor sessions. */
  now: number;
}

const NS_URL = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/**
 * A name-based UUID (RFC 9562 version 5, URL namespace), as frab and the C3VOC tools make their guids:
 * the same address gives the same guid in every export, so apps update a session instead of adding it.
 */
export function uuid5(name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(NS_URL.replaceAll('-', ''), 'hex'))
    .update(name)
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Lower-case ASCII letters, digits and `sep` between words ('' when nothing is left). */
function slugify(text: string, sep: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, sep)
    .replace(new RegExp(`^${sep}+|${sep}+$`, 'g'), '');
}

/**
 * The schedule's acronym from the nickname: both schemas want at least 4 of [a-z0-9_] (dashes only in
 * a year suffix), so `acme-2030` is `acme_2030` and a short nickname is padded (`io` → `io__`).
 */
export function acronymOf(nickname: string): string {
  return (slugify(nickname, '_') || 'event').padEnd(4, '_');
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (unix: number, timeZone: string) => {
  const p = zonedParts(unix, timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}`;
};
/** H:MM (at most 99:59, the XML schema's two digits of hours). */
const duration = (seconds: number) => {
  const minutes = Math.min(Math.max(0, Math.round(seconds / 60)), 99 * 60 + 59);
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
};
const HEX_COLOR = /^#[0-9a-f]{6}$/i;
/** The JSON schema's pattern for time_zone_name (it is left out for a zone the pattern refuses). */
const VOC_ZONE = /^([A-Z][a-z]+\/[A-Z][a-z]+)|UTC$/;

interface FrabPerson {
  id: number;
  guid: string;
  name: string;
  url: string;
  avatar: string | null;
}

interface FrabEvent {
  id: number;
  guid: string;
  date: string;
  end: string;
  start: string;
  duration: string;
  room: string;
  slug: string;
  url: string;
  title: string;
  track: string;
  abstract: string;
  persons: FrabPerson[];
  stream: string;
}

interface FrabDay {
  index: number;
  date: string;
  start: string;
  end: string;
  rooms: { name: string; guid: string; events: FrabEvent[] }[];
}

interface FrabModel {
  acronym: string;
  start: string;
  end: string;
  days: FrabDay[];
  rooms: { name: string; guid: string }[];
  tracks: { name: string; color: string }[];
  version: string;
}

const absolute = (url: string) => (/^https?:\/\//i.test(url) ? url : null);

function modelOf(o: FrabInput): FrabModel {
  const acronym = acronymOf(o.nickname);
  const tz = o.timeZone;
  const roomOf = (s: Session) => s.location || o.noRoom;
  // Of the event's home, not of the export's own address: a room has one guid in both formats.
  const roomGuid = (name: string) => uuid5(`${o.homeUrl}#room-${name}`);
  // In the site's order (sessions without a room last), then named.
  const roomsOf = (sessions: readonly Session[]) => [
    ...new Set([...new Set(sessions.map((s) => s.location))].sort(compareRooms).map((l) => l || o.noRoom)),
  ];
  const sessionsByDay = byDay(o.sessions, tz);
  // Every day of the event, and any day a session falls on outside it.
  const dayKeys = new Set(sessionsByDay.keys());
  if (o.dateBegin > 0)
    for (let t = o.dateBegin; t <= Math.max(o.dateBegin, o.dateEnd); t += 86_400) dayKeys.add(dayKey(t, tz));
  if (o.dateEnd > 0) dayKeys.add(dayKey(o.dateEnd, tz));
  if (dayKeys.size === 0) dayKeys.add(dayKey(o.now, tz));
  const days = [...dayKeys].sort().map((date, i): FrabDay => {
    const begins = startOfDay(date, tz);
    const sessions = sessionsByDay.get(date) ?? [];
    const names = roomsOf(sessions);
    return {
      index: i + 1,
      date,
      start: isoInZone(begins, tz),
      // The next midnight (not begins + 24 h: a DST day has 23 or 25 hours).
      end: isoInZone(startOfDay(dayKey(begins + 30 * 3600, tz), tz), tz),
      rooms: names.map((name) => ({
        name,
        guid: roomGuid(name),
        events: sessions.filter((s) => roomOf(s) === name).map((s) => eventOf(s, name)),
      })),
    };
  });
  function eventOf(s: Session, room: string): FrabEvent {
    const url = o.sessionUrl(s.activityID);
    return {
      id: s.activityID,
      guid: uuid5(url),
      date: isoInZone(s.dateBegin, tz),
      end: isoInZone(s.dateEnd, tz),
      start: hhmm(s.dateBegin, tz),
      duration: duration(s.dateEnd - s.dateBegin),
      room,
      // Unique (the id) and of the schemas' shape: acronym-id-title.
      slug: `${acronym}-${s.activityID}-${slugify(s.name, '-') || 'session'}`.slice(0, 120).replace(/[-_]+$/, ''),
      url,
      title: s.name,
      track: s.tags[0]?.name ?? '',
      abstract: htmlToText(s.description),
      persons: s.speakers.map((p) => ({
        id: p.speakerID,
        guid: uuid5(o.speakerUrl(p.speakerID)),
        name: p.name,
        url: o.speakerUrl(p.speakerID),
        avatar: absolute(p.image),
      })),
      stream: absolute(s.stream) ?? '',
    };
  }
  const allRooms = roomsOf(o.sessions);
  const tracks = new Map<string, string>();
  for (const s of o.sessions) for (const t of s.tags) if (!tracks.has(t.name)) tracks.set(t.name, t.color);
  const first = o.dateBegin || o.sessions[0]?.dateBegin || startOfDay(days[0].date, tz);
  const last = Math.max(o.dateEnd, first, ...o.sessions.map((s) => s.dateEnd));
  const model = {
    acronym,
    start: isoInZone(first, tz),
    end: isoInZone(last, tz),
    days,
    rooms: allRooms.map((name) => ({ name, guid: roomGuid(name) })),
    tracks: [...tracks].map(([name, color]) => ({ name, color })),
    version: '',
  };
  // The version names the content: an app can tell a changed schedule from the one it holds.
  model.version = createHash('sha256')
    .update(JSON.stringify([o.title, model]))
    .digest('hex')
    .slice(0, 12);
  return model;
}

/** schedule.json: frab's JSON format (C3VOC validator/json/schema.json). */
export function toFrabJson(o: FrabInput): unknown {
  const m = modelOf(o);
  return {
    $schema: 'https://c3voc.de/schedule/schema.json',
    generator: { name: 'Podium' },
    schedule: {
      version: m.version,
      base_url: o.homeUrl,
      conference: {
        acronym: m.acronym,
        title: o.title,
        ...(o.description ? { description: htmlToText(o.description) } : {}),
        start: m.start,
        end: m.end,
        daysCount: m.days.length,
        timeslot_duration: '00:05',
        ...(VOC_ZONE.test(o.timeZone) ? { time_zone_name: o.timeZone } : {}),
        url: o.homeUrl,
        tracks: m.tracks.map((t) => ({ name: t.name, ...(HEX_COLOR.test(t.color) ? { color: t.color } : {}) })),
        rooms: m.rooms,
        days: m.days.map((d) => ({
          index: d.index,
          date: d.date,
          day_start: d.start,
          day_end: d.end,
          rooms: Object.fromEntries(
            d.rooms.map((r) => [
              r.name,
              r.events.map((e) => ({
                guid: e.guid,
                id: e.id,
                date: e.date,
                start: e.start,
                end: e.end,
                duration: e.duration,
                room: e.room,
                slug: e.slug,
                url: e.url,
                title: e.title,
                subtitle: '',
                track: e.track || null,
                type: 'session',
                language: o.language || null,
                abstract: e.abstract,
                description: '',
                // pretalx's person shape (name, no numeric id): frab's requires id and public_name,
                // and the schema takes exactly one of the two.
                persons: e.persons.map((p) => ({
                  guid: p.guid,
                  name: p.name,
                  public_name: p.name,
                  url: p.url,
                  avatar: p.avatar,
                })),
                links: e.stream ? [{ url: e.stream, title: 'Stream', type: 'media' }] : [],
              })),
            ]),
          ),
        })),
      },
    },
  };
}

// eslint-disable-next-line no-control-regex -- characters XML 1.0 does not allow, dropped
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text or attribute value for XML. */
export const xmlEscape = (value: string) => value.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** One element: <name attrs>text</name>, or <name attrs/> without content. */
function el(name: string, content: string | null = null, attrs: Record<string, string | number> = {}): string {
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');
  return content === null ? `<${name}${a}/>` : `<${name}${a}>${content}</${name}>`;
}
const text = (name: string, value: string) => el(name, xmlEscape(value));

/** schedule.xml: the frab/pentabarf XML (C3VOC validator/xsd/schedule.xml.xsd). */
export function toFrabXml(o: FrabInput): string {
  const m = modelOf(o);
  const event = (e: FrabEvent) =>
    el(
      'event',
      [
        text('date', e.date),
        text('start', e.start),
        text('duration', e.duration),
        text('room', e.room),
        text('slug', e.slug),
        text('url', e.url),
        text('title', e.title),
        text('subtitle', ''),
        text('track', e.track),
        text('type', 'session'),
        text('language', o.language),
        text('abstract', e.abstract),
        text('description', ''),
        el('persons', e.persons.map((p) => el('person', xmlEscape(p.name), { id: p.id, guid: p.guid })).join('')),
        el('links', e.stream ? el('link', 'Stream', { href: e.stream, type: 'media' }) : ''),
      ].join('\n'),
      { id: e.id, guid: e.guid },
    );
  const conference = el(
    'conference',
    [
      text('acronym', m.acronym),
      text('title', o.title),
      text('start', m.start),
      text('end', m.end),
      text('days', String(m.days.length)),
      text('timeslot_duration', '00:05'),
      text('base_url', o.homeUrl),
      text('url', o.homeUrl),
      text('time_zone_name', o.timeZone),
      ...m.tracks.map((t) =>
        el('track', xmlEscape(t.name), { name: t.name, ...(HEX_COLOR.test(t.color) ? { color: t.color } : {}) }),
      ),
    ].join('\n'),
  );
  const days = m.days.map((d) =>
    el(
      'day',
      d.rooms.map((r) => el('room', r.events.map(event).join('\n'), { name: r.name, guid: r.guid })).join('\n'),
      { index: d.index, date: d.date, start: d.start, end: d.end },
    ),
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    el(
      'schedule',
      [
        el('generator', null, { name: 'Podium' }),
        text('url', o.scheduleUrl),
        text('version', m.version),
        conference,
        ...days,
      ].join('\n'),
    ) +
    '\n'
  );
}
