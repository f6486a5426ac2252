// event.edit over real HTTP, in both call styles and on both stores (spec §2.2, §4.2, §1.6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, nowSeconds, wallClock, type Client } from '../helpers/operations.ts';

const DAY = 86400;
const long = (n: number) => 'x'.repeat(n);
const T0 = Date.UTC(2031, 4, 10, 12, 0, 0) / 1000; // 2031-05-10 12:00 UTC

/** [key, valid value, value read back, invalid value]: every key of spec §2.2, then the extension keys. */
const EDITS: [string, string, string, string][] = [
  ['name', '  Renamed Event  ', 'Renamed Event', '   '],
  ['nickname', 'edit-me-2', 'edit-me-2', 'Edit Me'],
  ['email', 'Org@Example.com', 'Org@Example.com', 'not-an-email'],
  ['description', '<p>Hello <strong>world</strong></p>', '<p>Hello <strong>world</strong></p>', long(50001)],
  ['cover', 'https://cdn.example.com/cover.png', 'https://cdn.example.com/cover.png', 'javascript:alert(1)'],
  ['dateBegin', String(T0), String(T0), 'tomorrow'],
  ['dateEnd', String(T0 + 7200), String(T0 + 7200), '-1'],
  ['enrollmentBegin', String(T0 - 10 * DAY), String(T0 - 10 * DAY), '1.5'],
  ['enrollmentEnd', String(T0 - DAY), String(T0 - DAY), 'soon'],
  ['latitude', '38.7223', '38.7223', '91'],
  ['longitude', '-9.1393', '-9.1393', '-181'],
  ['address', 'Rua Augusta 1, Lisboa', 'Rua Augusta 1, Lisboa', long(1001)],
  ['fugleman', 'Podium Org', 'Podium Org', long(1001)],
  ['ticketURL', 'https://tickets.example.com/e/1', 'https://tickets.example.com/e/1', 'tickets.example.com'],
  ['website', 'https://example.com/', 'https://example.com/', 'example.com'],
  ['accessCode', '1234', '1234', '0'],
  ['socialA', 'https://a.example.com/podium', 'https://a.example.com/podium', '@podium'],
  ['socialC', 'https://c.example.com/podium', 'https://c.example.com/podium', 'podium'],
  ['wireless', 'SSID podium, password 1234', 'SSID podium, password 1234', long(1001)],
  ['visible', '1', '1', '2'],
  ['public', '0', '0', 'no'],
  ['automaticEnrollment', '1', '1', '2'],
  // Podium extensions.
  ['timezone', 'Europe/Lisbon', 'Europe/Lisbon', 'Mars/Olympus'],
  ['language', 'pt', 'pt', 'fr'],
  ['city', 'Lisbon', 'Lisbon', long(1001)],
  ['state', 'Lisboa', 'Lisboa', long(1001)],
  ['placeName', 'Main Hall', 'Main Hall', long(1001)],
  ['presential', '1', '1', '2'],
  ['archived', '1', '1', '-1'],
  ['emailName', ' Acme Conf Team ', 'Acme Conf Team', 'Acme\r\nBcc: x@example.com'],
];

describe.each(STORES)('event.edit on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
    });
    afterAll(() => p?.close());

    const bind = async (name: string, nickname: string) =>
      (
        await c.ok('company.event.bind', {
          token: w.adminA,
          query: { companyID: w.companyA.companyID },
          body: { name, nickname },
        })
      )[0];
    const edit = (eventID: string, key: string, value: string | number, token = w.adminA) =>
      c.call('event.edit', { token, query: { eventID, key }, body: { value } });
    /** Several edits that must all succeed, in order. */
    const set = async (eventID: string, edits: Record<string, string | number>, token = w.adminA) => {
      for (const [key, value] of Object.entries(edits))
        expect((await edit(eventID, key, value, token)).text).toMatch(/^\{/);
    };
    /** An edit that must fail with `status` and leave the event as it was. */
    const refused = async (eventID: string, key: string, value: string | number, status = 400, message?: RegExp) => {
      const before = await get(eventID);
      await c.fail('event.edit', { token: w.adminA, query: { eventID, key }, body: { value } }, status, message);
      expect(await get(eventID)).toEqual(before);
    };
    const get = async (eventID: string) => (await c.ok('event.get', { token: w.adminA, query: { eventID } }))[0];

    let target: Record<string, string>;
    beforeAll(async () => {
      target = await bind('Edit Me', 'edit-me');
    });

    it.each(EDITS)('sets %s, reads it back, and refuses an invalid value', async (key, valid, stored, invalid) => {
      const r = await edit(target.eventID, key, valid);
      expect(r.status, r.text).toBe(200);
      expect(r.data[0][key]).toBe(stored);
      expect((await get(target.eventID))[key]).toBe(stored);
      await refused(target.eventID, key, invalid);
    });

    it.each([
      ['accessCode', '10000'],
      ['accessCode', '-5'],
      ['accessCode', '12a'],
      ['latitude', '-90.5'],
      ['longitude', '180.01'],
      ['email', 'two@@example.com'],
      ['cover', 'http://'],
      ['cname', 'https://events.example.com'],
      ['cname', 'localhost'],
      ['timezone', 'PST'],
      ['timezone', 'EST5EDT'],
      ['nickname', '-edge-'],
      ['name', long(201)],
    ])('refuses %s = %s', async (key, value) => {
      await refused(target.eventID, key, value);
    });

    it.each([
      ['cover', ''],
      ['latitude', ''],
      ['accessCode', ''],
      ['cname', ''],
      ['email', ''],
      ['enrollmentBegin', '0'],
      ['address', ''],
    ])('an empty value clears %s', async (key, cleared) => {
      // The table above left the event private, and a private event keeps its access code.
      if (key === 'accessCode') await set(target.eventID, { public: 1 });
      expect((await edit(target.eventID, key, '')).status).toBe(200);
      expect((await get(target.eventID))[key]).toBe(cleared);
    });

    // The site, the calendars and the frab exports print the zone's name, so it is stored as IANA spells it.
    it.each([
      ['US/Pacific', 'America/Los_Angeles'],
      ['utc', 'UTC'],
      ['Etc/UTC', 'UTC'],
      ['europe/lisbon', 'Europe/Lisbon'], // last: the table above left the event in Lisbon
    ])('stores timezone %s as %s', async (value, stored) => {
      expect((await edit(target.eventID, 'timezone', value)).data[0].timezone).toBe(stored);
      expect((await get(target.eventID)).timezone).toBe(stored);
    });

    it.each(['name', 'nickname', 'dateBegin', 'visible', 'timezone', 'language'])(
      'an empty value for %s is refused',
      async (key) => {
        await refused(target.eventID, key, '', 400, /value cannot be empty/);
      },
    );

    // prettier-ignore
    it.each([
      'companyID', 'eventID', 'isTemplate', 'templateID', 'siblingID', 'creatorID', 'ownerID', 'budget', 'sandbox',
      'emailAddress', 'dateCreated', 'capacity', 'peopleCount', '__proto__', 'toString',
    ])('refuses the key %s (no mass assignment)', async (key) => {
      await refused(target.eventID, key, '7', 400, /cannot be edited/);
    });

    it('sanitizes description HTML', async () => {
      const html =
        '<p onclick="steal()">Hi</p><script>alert(1)</script>' +
        '<img src="https://cdn.example.com/a.png" onerror="alert(1)"><a href="javascript:alert(1)">bad</a>' +
        '<a href="https://example.com" target="_blank">ok</a><style>p{}</style><iframe src="https://x.example"></iframe>';
      const r = await edit(target.eventID, 'description', html);
      const stored = (await get(target.eventID)).description;
      expect(r.data[0].description).toBe(stored);
      expect(stored).toContain('<p>Hi</p>');
      expect(stored).toContain('<img src="https://cdn.example.com/a.png" />');
      expect(stored).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>');
      for (const bad of ['script', 'alert', 'onerror', 'onclick', 'javascript:', 'style', 'iframe'])
        expect(stored).not.toContain(bad);
    });

    // [edits in order, presential after each]: it follows the first venue set and the last one cleared;
    // an explicit presential holds through corrections of the address.
    // prettier-ignore
    it.each([
      ['a first venue makes it presential', [['address', 'Rua Augusta 1'], ['placeName', 'Hall']], ['1', '1']],
      ['the name of the place alone is a venue', [['placeName', 'Hall'], ['placeName', '']], ['1', '0']],
      ['clearing the last venue makes it online', [['address', 'A'], ['placeName', 'B'], ['address', ''], ['placeName', '']], ['1', '1', '1', '0']],
      ['an explicit presential wins over later address edits', [['address', 'A'], ['presential', '0'], ['address', 'B']], ['1', '0', '0']],
      ['an explicit presential without a venue stays', [['presential', '1'], ['city', 'Lisbon']], ['1', '1']],
      ['a city alone is not a venue', [['city', 'Lisbon']], ['0']],
    ] as const)('presential: %s', async (_, edits, expected) => {
      const e = await bind('Venue', `venue-${Math.random().toString(36).slice(2, 10)}`);
      expect((await get(e.eventID)).presential).toBe('0');
      for (const [i, [key, value]] of edits.entries()) {
        const r = await edit(e.eventID, key, value);
        expect(r.status, r.text).toBe(200);
        expect([key, r.data[0].presential]).toEqual([key, expected[i]]);
      }
      expect((await get(e.eventID)).presential).toBe(expected.at(-1));
    });

    it('refuses a private event without an access code, saying why', async () => {
      const e = await bind('Private', 'private-rules');
      await refused(e.eventID, 'public', 0, 400, /^400 public 0 needs an access code: set accessCode first/);
      await set(e.eventID, { accessCode: 4321, public: 0, visible: 1 });
      await refused(e.eventID, 'accessCode', '', 400, /^400 accessCode cannot be cleared while the event is private/);
      await set(e.eventID, { accessCode: 1234 }); // another code is fine
      await set(e.eventID, { public: 1, accessCode: '' });
      expect(await get(e.eventID)).toMatchObject({ public: '1', accessCode: '' });
    });

    it('starts the copy of a private event hidden, and visible only once it has a code', async () => {
      const source = await bind('Private source', 'private-source');
      await set(source.eventID, { accessCode: 4321, public: 0, visible: 1 });
      const [copy] = await c.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID, siblingID: source.eventID },
        body: { name: 'Private copy', nickname: 'private-copy' },
      });
      expect(copy).toMatchObject({ public: '0', visible: '0', accessCode: '' });
      await refused(copy.eventID, 'visible', 1, 400, /^400 a private event needs an access code before it is visible/);
      await set(copy.eventID, { accessCode: 1111, visible: 1 });
    });

    it('keeps dateEnd at or after dateBegin, and enrollmentEnd after enrollmentBegin', async () => {
      const e = await bind('Dates', 'dates');
      await set(e.eventID, { dateBegin: T0, dateEnd: T0 + 3600 });
      await refused(e.eventID, 'dateEnd', T0 - 1, 400, /dateEnd cannot be before dateBegin/);
      await refused(e.eventID, 'dateBegin', T0 + 3601);
      await set(e.eventID, { dateEnd: T0 }); // equal is fine
      await set(e.eventID, { enrollmentBegin: T0 - DAY, enrollmentEnd: T0 - 3600 });
      await refused(e.eventID, 'enrollmentEnd', T0 - DAY - 1, 400, /enrollmentEnd cannot be before/);
      await refused(e.eventID, 'enrollmentBegin', T0);
      expect(await get(e.eventID)).toMatchObject({ dateBegin: String(T0), dateEnd: String(T0) });
    });

    describe('split date parts, in the event’s time zone', () => {
      const TZ = 'America/Sao_Paulo';
      let e: Record<string, string>;
      beforeAll(async () => {
        e = await bind('Split', 'split');
        // 2030-06-15 09:00 and 2030-06-16 09:00 in São Paulo (UTC-3).
        const begin = Date.UTC(2030, 5, 15, 12) / 1000;
        await set(e.eventID, { timezone: TZ, dateBegin: begin, dateEnd: begin + DAY });
      });
      const at = (year: number, month: number, day: number, hour: number, minute: number) => {
        return { year, month, day, hour, minute, second: 0 };
      };

      it.each([
        ['hourBegin', 14, 'dateBegin', at(2030, 6, 15, 14, 0)],
        ['minuteBegin', 30, 'dateBegin', at(2030, 6, 15, 14, 30)],
        ['dayBegin', 10, 'dateBegin', at(2030, 6, 10, 14, 30)],
        ['monthBegin', 5, 'dateBegin', at(2030, 5, 10, 14, 30)],
        ['hourEnd', 18, 'dateEnd', at(2030, 6, 16, 18, 0)],
        ['minuteEnd', 45, 'dateEnd', at(2030, 6, 16, 18, 45)],
        ['dayEnd', 20, 'dateEnd', at(2030, 6, 20, 18, 45)],
        ['monthEnd', 7, 'dateEnd', at(2030, 7, 20, 18, 45)],
      ])('%s=%s changes only that part of %s', async (key, value, column, wall) => {
        const before = await get(e.eventID);
        const other = column === 'dateBegin' ? 'dateEnd' : 'dateBegin';
        const r = await edit(e.eventID, key, value);
        expect(r.status, r.text).toBe(200);
        const after = await get(e.eventID);
        expect(after[column]).toBe(r.data[0][column]);
        expect(wallClock(Number(after[column]), TZ)).toEqual(wall);
        expect(after[other]).toBe(before[other]);
      });

      it('hourBegin=9 is 09:00 on the event’s wall clock (12:00 UTC in São Paulo)', async () => {
        expect((await edit(e.eventID, 'hourBegin', 9)).status).toBe(200);
        const begin = Number((await get(e.eventID)).dateBegin);
        expect(wallClock(begin, TZ)).toMatchObject({ hour: 9, minute: 30 });
        expect(new Date(begin * 1000).getUTCHours()).toBe(12);
      });

      it.each(['Asia/Tokyo', 'Europe/Lisbon', 'UTC', 'America/Los_Angeles'])('and in %s', async (tz) => {
        const zoned = await bind(`Zone ${tz}`, `zone-${tz.toLowerCase().replace(/[^a-z]/g, '-')}`);
        await set(zoned.eventID, { timezone: tz, dateBegin: T0, dateEnd: T0 + 10 * DAY });
        await set(zoned.eventID, { hourBegin: 9, minuteBegin: 5 });
        const begin = Number((await get(zoned.eventID)).dateBegin);
        expect(wallClock(begin, tz)).toEqual({ ...wallClock(T0, tz), hour: 9, minute: 5, second: 0 });
      });

      it('keeps the wall time when a part moves the date across a DST change', async () => {
        const tz = 'America/Los_Angeles';
        const la = await bind('DST', 'dst');
        const winter = Date.UTC(2031, 0, 15, 17) / 1000; // 15 January 09:00 PST (UTC-8)
        await set(la.eventID, { timezone: tz, dateBegin: winter, dateEnd: winter + 300 * DAY });
        await set(la.eventID, { monthBegin: 7 }); // 15 July 09:00 PDT (UTC-7)
        const begin = Number((await get(la.eventID)).dateBegin);
        expect(wallClock(begin, tz)).toEqual(at(2031, 7, 15, 9, 0));
        expect(begin).toBe(Date.UTC(2031, 6, 15, 16) / 1000);
      });

      it('starts from midnight today when neither date is set, never from the clock’s minutes', async () => {
        const fresh = await bind('Undated', 'undated');
        const today = wallClock(nowSeconds(), 'UTC');
        await set(fresh.eventID, { hourEnd: 23 });
        const end = Number((await get(fresh.eventID)).dateEnd);
        expect(wallClock(end, 'UTC')).toEqual({ ...today, hour: 23, minute: 0, second: 0 });
      });

      it('starts an unset date from the other date’s day', async () => {
        const half = await bind('Half dated', 'half-dated');
        const begin = Date.UTC(2030, 5, 15, 12, 30) / 1000; // 15 June 2030 09:30 in São Paulo
        await set(half.eventID, { timezone: TZ, dateBegin: begin, hourEnd: 17 });
        const end = Number((await get(half.eventID)).dateEnd);
        expect(wallClock(end, TZ)).toEqual(at(2030, 6, 15, 17, 0));
      });

      // prettier-ignore
      it.each([
        ['dayBegin', '0'], ['dayBegin', '32'], ['monthBegin', '0'], ['monthBegin', '13'], ['hourBegin', '24'],
        ['minuteBegin', '60'], ['hourBegin', '-1'], ['minuteEnd', '1.5'], ['dayEnd', 'ab'], ['monthEnd', '007'],
        ['monthEnd', '4'], // would put the end (20 April) before the begin (10 May)
      ])('refuses %s=%s', async (key, value) => {
        await refused(e.eventID, key, value);
      });

      it('refuses a day the month does not have', async () => {
        await set(e.eventID, { monthBegin: 6 }); // 10 June
        await refused(e.eventID, 'dayBegin', 31, 400, /invalid date/);
        await set(e.eventID, { dayBegin: 30 });
        await refused(e.eventID, 'monthBegin', 2, 400, /invalid date/);
        expect(wallClock(Number((await get(e.eventID)).dateBegin), TZ)).toMatchObject({ month: 6, day: 30 });
      });
    });

    it('keeps nicknames unique within the company (409)', async () => {
      const e = await bind('Nick', 'nick');
      await refused(e.eventID, 'nickname', 'a-one', 409, /nickname is already used/);
      expect((await edit(e.eventID, 'nickname', 'nick')).status).toBe(200);
      expect((await edit(w.eventB.eventID, 'nickname', 'nick', w.adminB)).status).toBe(200);
      expect((await edit(w.eventB.eventID, 'nickname', 'b-one', w.adminB)).status).toBe(200);
    });

    it.each([
      ['the operator', 'operator', 200],
      ['an event admin (system scope)', 'eventAdminSystem', 200],
      ['an event admin (event scope, downgraded)', 'eventAdminEventScope', 403],
      ['an attendee', 'attendee', 403],
      ['an attendee (system scope)', 'attendeeSystem', 403],
      ['a staff member', 'staff', 403],
      ['an external user of the company', 'externalA', 403],
      ['another company’s admin', 'adminB', 404],
      ['no token', undefined, 401],
    ] as const)('%s gets %s', async (_, who, status) => {
      const value = `Edited by ${who}`;
      const r = await c.call('event.edit', {
        token: who ? w[who] : undefined,
        query: { eventID: w.eventA.eventID, key: 'fugleman' },
        body: { value },
      });
      expect(r.status).toBe(status);
      expect((await get(w.eventA.eventID)).fugleman === value).toBe(status === 200);
    });
  });
});
