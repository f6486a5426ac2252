// The frab exports (src/site/frab.ts) as built from sessions: valid against the published XSD and JSON
// Schema (tests/helpers/frab.ts) in the cases an event can be in, and saying what the program says.
import { describe, expect, it } from 'vitest';
import { acronymOf, toFrabJson, toFrabXml, uuid5, type FrabInput } from '../../src/site/frab.ts';
import { jsonSchemaErrors, xsdErrors } from '../helpers/frab.ts';
import { session, unix } from '../shared/fixtures.ts';

const BASE = 'https://events.example.com/acme/acme-2030';
const input = (more: Partial<FrabInput> = {}): FrabInput => ({
  title: 'Acme Conf 2030',
  nickname: 'acme-2030',
  description: '<p>Talks &amp; more</p>',
  dateBegin: unix('2030-09-15T08:00:00Z'),
  dateEnd: unix('2030-09-16T16:00:00Z'),
  timeZone: 'Europe/Lisbon',
  language: 'en',
  sessions: [
    session(1, 'Main Hall', '2030-09-15T08:00:00Z', '2030-09-15T09:00:00Z', {
      name: 'Opening <keynote> & "welcome"',
      description: '<p>Hello <strong>world</strong></p>',
      speakers: [{ speakerID: 7, name: 'Ada Lovelace', headline: 'Analyst', image: 'https://cdn.example.com/ada.png' }],
      tags: [{ tagID: 1, name: 'Keynotes', color: '#aa3300' }],
      stream: 'https://stream.example.com/main',
    }),
    session(2, 'Room 2', '2030-09-15T10:00:00Z', '2030-09-15T11:30:00Z', {
      speakers: [{ speakerID: 8, name: 'Grace Hopper', headline: '', image: '/local/grace.png' }],
      tags: [{ tagID: 2, name: 'Workshops', color: 'teal' }],
    }),
    session(3, '', '2030-09-16T09:00:00Z', '2030-09-16T09:00:00Z', { name: 'Café ☕ — 午餐' }),
  ],
  homeUrl: `${BASE}`,
  scheduleUrl: `${BASE}/schedule.xml`,
  sessionUrl: (id) => `${BASE}/schedule/${id}`,
  speakerUrl: (id) => `${BASE}/speakers/${id}`,
  noRoom: 'Other',
  now: unix('2030-01-01T00:00:00Z'),
  ...more,
});

// [case, input]: the shapes an event's program can take.
const CASES: [string, FrabInput][] = [
  ['a two-day program with speakers, tracks, a stream and a session without a room', input()],
  ['no sessions yet', input({ sessions: [] })],
  ['neither dates nor sessions', input({ sessions: [], dateBegin: 0, dateEnd: 0 })],
  ['a short nickname and a zone the JSON pattern refuses', input({ nickname: 'io', timeZone: 'Etc/GMT-2' })],
  ['a session across a DST change, longer than 99 hours', input({ sessions: [session(9, 'Hall', '2030-10-26T08:00:00Z', '2030-11-02T08:00:00Z')] })], // prettier-ignore
  ['control characters in texts', input({ title: 'Bad \u0001 title', sessions: [session(4, 'R\u0007', '2030-09-15T08:00:00Z', '2030-09-15T09:00:00Z', { name: 'x\u0000y' })] })], // prettier-ignore
];

describe('frab exports', () => {
  it.each(CASES)('schedule.xml validates against the XSD: %s', async (_, o) => {
    expect(await xsdErrors(toFrabXml(o))).toEqual([]);
  });

  it.each(CASES)('schedule.json validates against the JSON Schema: %s', (_, o) => {
    expect(jsonSchemaErrors(toFrabJson(o))).toEqual([]);
  });

  it('the validators do refuse a broken schedule (the tests above can fail)', async () => {
    const xml = toFrabXml(input()).replace(/<duration>[^<]*<\/duration>/, '<duration>an hour</duration>');
    expect((await xsdErrors(xml)).join()).toMatch(/duration/);
    const json = toFrabJson(input()) as { schedule: { conference: Record<string, unknown> } };
    delete json.schedule.conference.acronym;
    expect(jsonSchemaErrors(json).join()).toMatch(/acronym/);
  });

  it('says what the program says: days, rooms, times in the event’s zone, people, tracks', () => {
    const json = toFrabJson(input()) as {
      schedule: { version: string; conference: Record<string, unknown> & { days: Record<string, unknown>[] } };
    };
    const c = json.schedule.conference;
    expect(c).toMatchObject({
      acronym: 'acme_2030',
      title: 'Acme Conf 2030',
      daysCount: 2,
      description: 'Talks & more',
    });
    expect(c).toMatchObject({ start: '2030-09-15T09:00:00+01:00', time_zone_name: 'Europe/Lisbon', url: BASE });
    expect(c.rooms).toEqual([
      { name: 'Main Hall', guid: uuid5(`${BASE}#room-Main Hall`) },
      { name: 'Room 2', guid: expect.any(String) },
      { name: 'Other', guid: expect.any(String) },
    ]);
    expect(c.tracks).toEqual([{ name: 'Keynotes', color: '#aa3300' }, { name: 'Workshops' }]);
    expect(c.days.map((d) => [d.date, d.day_start, d.day_end])).toEqual([
      ['2030-09-15', '2030-09-15T00:00:00+01:00', '2030-09-16T00:00:00+01:00'],
      ['2030-09-16', '2030-09-16T00:00:00+01:00', '2030-09-17T00:00:00+01:00'],
    ]);
    const day1 = c.days[0].rooms as Record<string, Record<string, unknown>[]>;
    expect(Object.keys(day1)).toEqual(['Main Hall', 'Room 2']);
    expect(day1['Main Hall'][0]).toMatchObject({
      id: 1,
      guid: uuid5(`${BASE}/schedule/1`),
      date: '2030-09-15T09:00:00+01:00',
      start: '09:00',
      duration: '01:00',
      room: 'Main Hall',
      title: 'Opening <keynote> & "welcome"',
      abstract: 'Hello world',
      track: 'Keynotes',
      slug: 'acme_2030-1-opening-keynote-welcome',
      url: `${BASE}/schedule/1`,
      persons: [{ name: 'Ada Lovelace', public_name: 'Ada Lovelace', url: `${BASE}/speakers/7`, avatar: 'https://cdn.example.com/ada.png', guid: uuid5(`${BASE}/speakers/7`) }], // prettier-ignore
      links: [{ url: 'https://stream.example.com/main', title: 'Stream', type: 'media' }],
    });
    expect(day1['Room 2'][0]).toMatchObject({ duration: '01:30', persons: [{ avatar: null }] });
    expect((c.days[1].rooms as Record<string, unknown[]>).Other).toHaveLength(1);
    // The same program is the same version; any change gives another.
    expect(json.schedule.version).toBe((toFrabJson(input()) as typeof json).schedule.version);
    expect(json.schedule.version).not.toBe((toFrabJson(input({ title: 'Other' })) as typeof json).schedule.version);
  });

  it('writes the same program in the XML, escaped', () => {
    const xml = toFrabXml(input());
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<schedule>/);
    expect(xml).toContain('<title>Opening &lt;keynote&gt; &amp; &quot;welcome&quot;</title>');
    expect(xml).toContain(`<event id="1" guid="${uuid5(`${BASE}/schedule/1`)}">`);
    expect(xml).toContain(`<person id="7" guid="${uuid5(`${BASE}/speakers/7`)}">Ada Lovelace</person>`);
    expect(xml).toContain(
      '<day index="2" date="2030-09-16" start="2030-09-16T00:00:00+01:00" end="2030-09-17T00:00:00+01:00">',
    );
    expect(xml).toContain('<track name="Keynotes" color="#aa3300">Keynotes</track>');
    expect(xml).toContain('<title>Café ☕ — 午餐</title>');
  });

  it.each([
    ['acme-2030', 'acme_2030'],
    ['summit', 'summit'],
    ['io', 'io__'],
    ['a', 'a___'],
  ])('acronym of %s is %s', (nickname, acronym) => {
    expect(acronymOf(nickname)).toBe(acronym);
  });

  it('gives a room the same guid, and the program the same version, in schedule.json and schedule.xml', () => {
    const json = toFrabJson(input({ scheduleUrl: `${BASE}/schedule.json` })) as {
      schedule: { version: string; conference: { rooms: { name: string; guid: string }[] } };
    };
    const xml = toFrabXml(input());
    const xmlRooms = [...xml.matchAll(/<room name="([^"]*)" guid="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    const jsonRooms = json.schedule.conference.rooms.map((r) => [r.name, r.guid]);
    expect(jsonRooms.length).toBeGreaterThan(1);
    expect(new Set(xmlRooms.map((r) => r.join(' ')))).toEqual(new Set(jsonRooms.map((r) => r.join(' '))));
    expect(xml).toContain(`<version>${json.schedule.version}</version>`);
  });

  it('makes RFC 9562 version-5 UUIDs (the URL namespace example of Python’s uuid5)', () => {
    // python3 -c "import uuid; print(uuid.uuid5(uuid.NAMESPACE_URL, 'https://example.com/'))"
    expect(uuid5('https://example.com/')).toBe('dd2c1780-811a-5296-81c5-178a0ef488bc');
  });
});
