import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, toICalendar, zoneTransitions } from '../../src/shared/schedule/ical.ts';
import type { Session } from '../../src/shared/schedule/program.ts';
import { session, unix } from './fixtures.ts';

// ---- A small, independent RFC 5545 reader (does not reuse the module's code) ----

interface Prop {
  name: string;
  params: Record<string, string>;
  value: string;
}
interface Component {
  name: string;
  props: Prop[];
  children: Component[];
}

const octets = (s: string) => new TextEncoder().encode(s).length;

/** Checks the physical format, unfolds and parses into a component tree. */
function parseICS(text: string): Component {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // only CRLF line breaks
  const physical = text.slice(0, -2).split('\r\n');
  for (const line of physical) {
    expect(octets(line), line).toBeLessThanOrEqual(75);
    // every line is valid UTF-8 on its own: folding never splits a character
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(line))).not.toThrow();
    expect(line).not.toMatch(/[\uD800-\uDFFF]/u);
  }
  const lines: string[] = [];
  for (const line of physical) {
    if (line.startsWith(' ') || line.startsWith('\t')) lines[lines.length - 1] += line.slice(1);
    else lines.push(line);
  }
  const root: Component = { name: '', props: [], children: [] };
  const stack = [root];
  for (const line of lines) {
    const m = /^([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:,]*))*):(.*)$/.exec(line);
    expect(m, `content line: ${line}`).not.toBeNull();
    const [, name, rawParams, value] = m!;
    const params: Record<string, string> = {};
    for (const p of rawParams.split(';').slice(1)) {
      const [k, v] = p.split('=');
      params[k.toUpperCase()] = v.replace(/^"|"$/g, '');
    }
    const top = stack[stack.length - 1];
    if (name === 'BEGIN') {
      const child: Component = { name: value, props: [], children: [] };
      top.children.push(child);
      stack.push(child);
    } else if (name === 'END') {
      expect(top.name).toBe(value);
      stack.pop();
    } else top.props.push({ name: name.toUpperCase(), params, value });
  }
  expect(stack).toHaveLength(1);
  expect(root.children).toHaveLength(1);
  return root.children[0];
}

function prop(c: Component, name: string): Prop | undefined {
  const all = c.props.filter((p) => p.name === name);
  expect(all.length, `${name} at most once in ${c.name}`).toBeLessThanOrEqual(1);
  return all[0];
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Splits a TEXT list on unescaped commas. */
function textList(value: string): string[] {
  return value.split(/(?<!\\),/).map(unescapeText);
}

const STAMP = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;

/** A DATE-TIME's fields as if UTC (Unix seconds), and whether it was marked Z. */
function stampSeconds(value: string): { t: number; utc: boolean } {
  const m = STAMP.exec(value);
  expect(m, value).not.toBeNull();
  const [, y, mo, d, h, mi, s, z] = m!;
  return { t: Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) / 1000, utc: z === 'Z' };
}

function offsetSeconds(value: string): number {
  const m = /^([+-])(\d{2})(\d{2})(\d{2})?$/.exec(value);
  expect(m, value).not.toBeNull();
  expect(value).not.toBe('-0000');
  return (m![1] === '-' ? -1 : 1) * (+m![2] * 3600 + +m![3] * 60 + +(m![4] ?? 0));
}

/** Observances of a VTIMEZONE as UTC onsets with the offset that starts there. */
function observances(vtz: Component): { onset: number; offset: number; kind: string }[] {
  return vtz.children
    .map((c) => {
      expect(['STANDARD', 'DAYLIGHT']).toContain(c.name);
      const from = offsetSeconds(prop(c, 'TZOFFSETFROM')!.value);
      const to = offsetSeconds(prop(c, 'TZOFFSETTO')!.value);
      const local = stampSeconds(prop(c, 'DTSTART')!.value);
      expect(local.utc).toBe(false);
      return { onset: local.t - from, offset: to, kind: c.name };
    })
    .sort((a, b) => a.onset - b.onset);
}

/** Resolves a DATE-TIME (with its TZID) to Unix seconds, as a calendar client would. */
function resolve(p: Prop, calendar: Component): number {
  const { t, utc } = stampSeconds(p.value);
  if (utc) {
    expect(p.params.TZID).toBeUndefined();
    return t;
  }
  const vtz = calendar.children.find((c) => c.name === 'VTIMEZONE' && prop(c, 'TZID')!.value === p.params.TZID);
  expect(vtz, `VTIMEZONE for ${p.params.TZID}`).toBeDefined();
  const obs = observances(vtz!);
  expect(t - obs[0].offset).toBeGreaterThanOrEqual(obs[0].onset); // covered by the VTIMEZONE
  const offsetAt = (u: number) => obs.filter((o) => o.onset <= u).at(-1)!.offset;
  // earliest instant whose offset maps it to this local time (RFC 5545 §3.3.5: the first occurrence)
  const candidates = [...new Set(obs.map((o) => o.offset))].map((o) => t - o).filter((u) => u + offsetAt(u) === t);
  expect(candidates.length, `local time ${p.value} exists`).toBeGreaterThan(0);
  return Math.min(...candidates);
}

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** Wall clock by Intl, independently of the module: 'YYYYMMDDTHHMMSS'. */
function intlLocal(t: number, zone: string): string {
  let f = wallFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    wallFormats.set(zone, f);
  }
  return f
    .format(t * 1000)
    .replace(/[-:]/g, '')
    .replace(' ', 'T');
}

function events(cal: Component) {
  return cal.children.filter((c) => c.name === 'VEVENT');
}

const NOW = unix('2025-11-01T12:00:00Z');

function calendar(zone: string, sessions: Session[], extra: Partial<Parameters<typeof toICalendar>[0]> = {}) {
  const text = toICalendar({
    calendarName: 'Summit',
    timeZone: zone,
    sessions,
    uidDomain: 'demo.podium.test',
    now: NOW,
    ...extra,
  });
  return { text, cal: parseICS(text) };
}

// ---- Tests ----

describe('toICalendar: the calendar', () => {
  it('has the VCALENDAR properties and one VTIMEZONE', () => {
    const { cal } = calendar('Europe/Lisbon', [session(1, 'Room 1', '2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z')]);
    expect(cal.name).toBe('VCALENDAR');
    expect(prop(cal, 'VERSION')!.value).toBe('2.0');
    expect(prop(cal, 'PRODID')!.value).toMatch(/^-\/\/Podium\/\//);
    expect(prop(cal, 'CALSCALE')!.value).toBe('GREGORIAN');
    expect(prop(cal, 'METHOD')!.value).toBe('PUBLISH');
    expect(prop(cal, 'X-WR-CALNAME')!.value).toBe('Summit');
    expect(cal.children.filter((c) => c.name === 'VTIMEZONE')).toHaveLength(1);
  });

  it('writes a valid empty calendar for an empty program', () => {
    const { cal } = calendar('Europe/Lisbon', []);
    expect(events(cal)).toHaveLength(0);
    expect(cal.children.filter((c) => c.name === 'VTIMEZONE')).toHaveLength(1);
  });

  it('writes every VEVENT property', () => {
    const s = session(42, 'Sala 2', '2025-12-22T09:00:00Z', '2025-12-22T10:30:00Z', {
      name: 'Talk; with, commas \\ and\nnew lines',
      description:
        '<p>First &amp; <strong>second</strong></p><ul><li>one</li><li>two</li></ul><p>Caf&eacute; &#233;</p>',
      speakers: [
        { speakerID: 1, name: 'Ana Lima', headline: '', image: '' },
        { speakerID: 2, name: 'Bo', headline: '', image: '' },
      ],
      tags: [
        { tagID: 1, name: 'AI, ML', color: '' },
        { tagID: 2, name: 'Web', color: '' },
      ],
    });
    const { cal } = calendar('Europe/Lisbon', [s], {
      location: 'Centro de Congressos',
      urlOf: (x) => `https://summit.example/schedule/${x.activityID}`,
    });
    const [e] = events(cal);
    expect(prop(e, 'UID')!.value).toBe('activity-42@demo.podium.test');
    expect(prop(e, 'DTSTAMP')!.value).toBe('20251101T120000Z');
    expect(prop(e, 'DTSTART')!.params.TZID).toBe('Europe/Lisbon');
    expect(prop(e, 'DTSTART')!.value).toBe('20251222T090000');
    expect(prop(e, 'DTEND')!.value).toBe('20251222T103000');
    expect(unescapeText(prop(e, 'SUMMARY')!.value)).toBe('Talk; with, commas \\ and\nnew lines');
    expect(unescapeText(prop(e, 'DESCRIPTION')!.value)).toBe(
      'First & second\n\n• one\n• two\n\nCaf&eacute; é\n\nSpeakers: Ana Lima, Bo\n\nhttps://summit.example/schedule/42',
    );
    expect(unescapeText(prop(e, 'LOCATION')!.value)).toBe('Sala 2, Centro de Congressos');
    expect(textList(prop(e, 'CATEGORIES')!.value)).toEqual(['AI, ML', 'Web']);
    expect(prop(e, 'URL')!.value).toBe('https://summit.example/schedule/42');
  });

  it('leaves out what a session does not have', () => {
    const { cal } = calendar('UTC', [session(1, '', '2025-12-22T09:00:00Z', '2025-12-22T09:00:00Z', { name: '' })]);
    const [e] = events(cal);
    expect(prop(e, 'DTEND')).toBeUndefined(); // no length: DTSTART alone (RFC 5545 §3.6.1)
    expect(prop(e, 'DESCRIPTION')).toBeUndefined();
    expect(prop(e, 'LOCATION')).toBeUndefined();
    expect(prop(e, 'URL')).toBeUndefined();
    expect(prop(e, 'CATEGORIES')).toBeUndefined();
    expect(prop(e, 'SUMMARY')!.value).toBe('#1');
  });

  it('keeps injected line breaks out of URL and UID', () => {
    const { cal } = calendar('UTC', [session(1, '', '2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z')], {
      uidDomain: 'evil.test\r\nX-EVIL:1',
      urlOf: () => 'https://x.test/a b\r\nATTACH:evil',
    });
    const [e] = events(cal);
    expect(e.props.map((p) => p.name)).not.toContain('ATTACH');
    expect(e.props.map((p) => p.name)).not.toContain('X-EVIL');
    expect(prop(e, 'URL')!.value).toBe('https://x.test/abATTACH:evil');
  });

  it('folds long lines at 75 octets without splitting UTF-8 and unfolds to the original', () => {
    const names = ['a'.repeat(200), 'é'.repeat(100), '😀'.repeat(60), `x${'ção'.repeat(40)}`, '👩🏽‍💻 '.repeat(20).trim()];
    const sessions = names.map((name, i) =>
      session(i + 1, 'R', '2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z', { name, description: name }),
    );
    const { cal } = calendar('Europe/Lisbon', sessions);
    expect(events(cal).map((e) => unescapeText(prop(e, 'SUMMARY')!.value))).toEqual(names);
  });
});

describe('escapeText and foldLine', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b;c\\d', 'a\\,b\\;c\\\\d'],
    ['l1\nl2\r\nl3\rl4', 'l1\\nl2\\nl3\\nl4'],
    ['bell\u0007 tab\t', 'bell tab\t'],
  ])('escapes %j', (input, expected) => {
    expect(escapeText(input)).toBe(expected);
  });

  it.each([74, 75, 76, 150, 151])('folds a line of %i ASCII octets', (n) => {
    const line = `X:${'a'.repeat(n - 2)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.every((p) => octets(p) <= 75)).toBe(true);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
    expect(parts).toHaveLength(n <= 75 ? 1 : 1 + Math.ceil((n - 75) / 74));
  });
});

// Sessions across DST changes, checked two ways: the written local times equal Intl's wall clock, and a
// client resolving them through the VTIMEZONE gets the session's instant back.
const DST_CASES: [string, string, Session[], { daylight: number; standard: number }][] = [
  [
    'Europe/Lisbon, both changes of 2025 and the repeated hour',
    'Europe/Lisbon',
    [
      session(1, 'A', '2025-03-29T23:30:00Z', '2025-03-30T00:59:59Z'),
      session(2, 'A', '2025-03-30T00:30:00Z', '2025-03-30T02:00:00Z'), // across spring-forward
      session(3, 'A', '2025-10-26T00:30:00Z', '2025-10-26T01:00:00Z'), // 01:30 WEST, first pass
      session(4, 'A', '2025-10-26T01:30:00Z', '2025-10-26T02:30:00Z'), // 01:30 WET, second pass: UTC
      session(5, 'A', '2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z'),
      session(6, 'A', '2026-07-01T09:00:00Z', '2026-07-01T10:00:00Z'), // next year too
    ],
    { daylight: 2, standard: 3 },
  ],
  [
    'America/Sao_Paulo 2018–2019 (DST since abolished)',
    'America/Sao_Paulo',
    [
      session(1, 'A', '2018-02-17T12:00:00Z', '2018-02-18T12:00:00Z'), // across the end of DST
      session(2, 'A', '2018-11-04T02:30:00Z', '2018-11-04T03:30:00Z'), // across the start at local midnight
      session(3, 'A', '2018-12-10T12:00:00Z', '2018-12-10T13:00:00Z'),
      session(4, 'A', '2019-11-10T12:00:00Z', '2019-11-10T13:00:00Z'), // no DST any more
    ],
    { daylight: 2, standard: 2 }, // 1 January 2018 was in DST: the first observance is DAYLIGHT
  ],
  [
    'America/New_York 2024',
    'America/New_York',
    [
      session(1, 'A', '2024-03-10T06:30:00Z', '2024-03-10T07:30:00Z'),
      session(2, 'A', '2024-11-03T05:30:00Z', '2024-11-03T06:30:00Z'),
      session(3, 'A', '2024-11-03T06:15:00Z', '2024-11-03T06:45:00Z'), // 01:15 EST, second pass
      session(4, 'A', '2024-07-04T16:00:00Z', '2024-07-04T17:00:00Z'),
    ],
    { daylight: 1, standard: 2 },
  ],
  [
    'Australia/Sydney (southern hemisphere: the year begins in DST)',
    'Australia/Sydney',
    [
      session(1, 'A', '2025-01-10T00:00:00Z', '2025-01-10T01:00:00Z'),
      session(2, 'A', '2025-06-10T00:00:00Z', '2025-06-10T01:00:00Z'),
    ],
    { daylight: 2, standard: 1 },
  ],
  [
    'Australia/Lord_Howe (a 30-minute change)',
    'Australia/Lord_Howe',
    [session(1, 'A', '2025-04-05T14:45:00Z', '2025-04-05T15:45:00Z')],
    { daylight: 2, standard: 1 },
  ],
  [
    'Asia/Tokyo (no DST)',
    'Asia/Tokyo',
    [session(1, 'A', '2025-12-22T00:00:00Z', '2025-12-22T01:00:00Z')],
    { daylight: 0, standard: 1 },
  ],
  ['UTC', 'UTC', [session(1, 'A', '2025-12-31T23:30:00Z', '2026-01-01T00:30:00Z')], { daylight: 0, standard: 1 }],
  [
    'Asia/Kolkata (+05:30)',
    'Asia/Kolkata',
    [session(1, 'A', '2025-12-22T03:30:00Z', '2025-12-22T04:00:00Z')],
    { daylight: 0, standard: 1 },
  ],
];

describe('toICalendar: local times and VTIMEZONE', () => {
  it.each(DST_CASES)('%s', (_, zone, sessions, counts) => {
    const { cal } = calendar(zone, sessions);
    const vtz = cal.children.find((c) => c.name === 'VTIMEZONE')!;
    expect(prop(vtz, 'TZID')!.value).toBe(zone);
    const obs = observances(vtz);
    expect(obs.filter((o) => o.kind === 'DAYLIGHT')).toHaveLength(counts.daylight);
    expect(obs.filter((o) => o.kind === 'STANDARD')).toHaveLength(counts.standard);

    const byUid = new Map(events(cal).map((e) => [prop(e, 'UID')!.value, e]));
    for (const s of sessions) {
      const e = byUid.get(`activity-${s.activityID}@demo.podium.test`)!;
      for (const [name, t] of [
        ['DTSTART', s.dateBegin],
        ['DTEND', s.dateEnd],
      ] as const) {
        const p = prop(e, name)!;
        expect(resolve(p, cal), `${name} of ${s.activityID}`).toBe(t);
        if (p.params.TZID) expect(p.value).toBe(intlLocal(t, zone));
      }
    }
    // The VTIMEZONE's offsets agree with Intl on every hour of the sessions' span.
    const first = Math.min(...sessions.map((s) => s.dateBegin));
    const last = Math.max(...sessions.map((s) => s.dateEnd));
    const offsetAt = (u: number) => obs.filter((o) => o.onset <= u).at(-1)!.offset;
    for (let u = first; u <= last; u += 3600) {
      const wall = stampSeconds(intlLocal(u, zone)).t;
      expect(offsetAt(u), `offset at ${new Date(u * 1000).toISOString()}`).toBe(wall - u);
    }
  });

  it('uses UTC for the second pass of a repeated hour only', () => {
    const { cal } = calendar('Europe/Lisbon', DST_CASES[0][2]);
    const utc = events(cal).filter((e) => prop(e, 'DTSTART')!.value.endsWith('Z'));
    expect(utc.map((e) => prop(e, 'UID')!.value)).toEqual(['activity-4@demo.podium.test']);
  });

  it('finds the transitions to the second', () => {
    expect(zoneTransitions('America/New_York', unix('2024-01-01T00:00:00Z'), unix('2025-01-01T00:00:00Z'))).toEqual([
      { at: unix('2024-03-10T07:00:00Z'), from: -300, to: -240 },
      { at: unix('2024-11-03T06:00:00Z'), from: -240, to: -300 },
    ]);
    expect(zoneTransitions('Asia/Tokyo', unix('2024-01-01T00:00:00Z'), unix('2025-01-01T00:00:00Z'))).toEqual([]);
  });

  it('falls back to UTC for an unknown zone', () => {
    const { cal } = calendar('Nowhere/Special', [session(1, 'A', '2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z')]);
    expect(prop(events(cal)[0], 'DTSTART')!.params.TZID).toBe('UTC');
  });

  it('writes a 300-session program quickly', () => {
    const base = unix('2025-03-28T08:00:00Z');
    const sessions = Array.from({ length: 300 }, (_, i) =>
      session(
        i + 1,
        `Room ${i % 6}`,
        new Date((base + i * 1800) * 1000).toISOString(),
        new Date((base + i * 1800 + 2700) * 1000).toISOString(),
        {
          description: '<p>Some text about the session, long enough to be folded onto a second line or more.</p>',
        },
      ),
    );
    const t0 = performance.now();
    const text = toICalendar({ calendarName: 'S', timeZone: 'Europe/Lisbon', sessions, uidDomain: 'x.test', now: NOW });
    expect(performance.now() - t0).toBeLessThan(500);
    expect(events(parseICS(text))).toHaveLength(300);
  });
});
