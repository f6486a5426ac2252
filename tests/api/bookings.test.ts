import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf, type Client } from '../helpers/operations.ts';

// Bookings (issue 16, docs/api/bookings.md): an event's item reservations. 'event.booking.create'
// answers the booking with its generated reference (value), one per contact e-mail and event, its
// counts taken from the event's stock ('event.booking.stock', a Podium extension) by conditional
// writes; 'event.booking.find' (selections all, fresh, used; query), 'event.booking.get' (by value),
// 'event.booking.use' (extension: once). Concurrent bookings never pass the stock or book an e-mail
// twice. Both stores, both call styles.

const FIELDS = [
  'bookingID', 'eventID', 'value', 'source', 'used', 'usedDate', 'name', 'email', 'telephone', 'company',
  'dataCollectors', 'liveSupport', 'extraPhone', 'extraLive', 'automaticReport', 'beacons', 'pricing', 'personID', 'date',
]; // prettier-ignore

const BODY = {
  name: 'Ana Lima',
  email: 'ana@booking.test',
  telephone: '+351 912 345 678',
  company: 'Lima Lda',
  dataCollectors: '2',
  liveSupport: '1',
  extraPhone: '0',
  extraLive: '0',
  automaticReport: '1',
  beacons: '10',
  pricing: 'standard',
};

describe.each(STORES)('bookings on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let seq = 0;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  describe.each(STYLES)('%s', (style) => {
    let c: Client;
    beforeAll(() => {
      c = client(p, style);
    });

    async function newEvent() {
      seq++;
      const [{ eventID }] = await c.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: `Bookings ${seq}`, nickname: `bookings-${style}-${seq}` },
      });
      return eventID;
    }
    const create = (eventID: string, body: Record<string, string> = {}, token = w.adminA) =>
      c.call('event.booking.create', { token, query: { eventID }, body: { ...BODY, ...body } });
    const stock = (eventID: string, item: string, value: number) =>
      c.call('event.booking.stock', { token: w.adminA, query: { eventID, item }, body: { value } });

    it('books items for an event and answers the booking with its reference; the change names it', async () => {
      const eventID = await newEvent();
      const r = await create(eventID, { email: 'ANA@Booking.test', name: '  Ana   Lima ' });
      expect(r.status, r.text).toBe(200);
      const b = r.data[0] as Record<string, string>;
      expect(Object.keys(b).sort()).toEqual([...FIELDS].sort());
      expect(b).toMatchObject({
        eventID, source: 'api', used: '0', usedDate: '0', name: 'Ana Lima', email: 'ana@booking.test',
        dataCollectors: '2', liveSupport: '1', automaticReport: '1', beacons: '10', pricing: 'standard',
      }); // prettier-ignore
      expect(b.value).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
      const changes = await p.db
        .selectFrom('change')
        .select(['objectID', 'kind'])
        .where('operation', '=', 'event.booking.create')
        .where('eventID', '=', Number(eventID))
        .execute();
      expect(changes.map((x) => [String(x.objectID), x.kind])).toEqual([[b.bookingID, 'event.booking']]);
    });

    it('reads a booking by its reference, case and dashes aside; another event’s reference is a missing one', async () => {
      const eventID = await newEvent();
      const other = await newEvent();
      const b = (await create(eventID)).data[0] as Record<string, string>;
      const mine = (await create(other, { email: 'other@booking.test' })).data[0] as Record<string, string>;
      const get = (value: string, e = eventID) => c.call('event.booking.get', { token: w.adminA, query: { eventID: e, value } }); // prettier-ignore
      expect((await get(b.value)).data[0]).toEqual(b);
      expect((await get(`${b.value.slice(0, 5).toLowerCase()}-${b.value.slice(5)}`)).data[0].bookingID).toBe(b.bookingID); // prettier-ignore
      expect((await get(mine.value)).text).toBe('404 booking not found');
      expect((await get('0000000000')).text).toBe('404 booking not found');
    });

    it('lists all, fresh and used bookings, filters by query, pages; a booking is used once', async () => {
      const eventID = await newEvent();
      const a = (await create(eventID, { email: 'a@booking.test', company: 'Acme Corp' })).data[0] as Record<
        string,
        string
      >;
      const b = (await create(eventID, { email: 'b@booking.test', company: 'Beta' })).data[0] as Record<string, string>;
      const use = () => c.call('event.booking.use', { token: w.adminA, query: { eventID, value: a.value } });
      const used = await use();
      expect(used.data[0]).toMatchObject({ bookingID: a.bookingID, used: '1' });
      expect(Number(used.data[0].usedDate)).toBeGreaterThan(0);
      expect((await use()).text).toBe('409 booking was used already');
      const find = (query: Record<string, string | number>) =>
        c.ok('event.booking.find', { token: w.adminA, query: { eventID, ...query } });
      expect(idsOf(await find({ selection: 'all' }), 'bookingID')).toEqual([b.bookingID, a.bookingID]);
      expect(idsOf(await find({ selection: 'fresh' }), 'bookingID')).toEqual([b.bookingID]);
      expect(idsOf(await find({ selection: 'used' }), 'bookingID')).toEqual([a.bookingID]);
      // With a space: a generated reference (also searched) never holds one, so only Acme Corp matches.
      expect(idsOf(await find({ selection: 'all', query: 'ACME c' }), 'bookingID')).toEqual([a.bookingID]);
      expect(idsOf(await find({ selection: 'all', query: '%' }), 'bookingID')).toEqual([]);
      const page = await c.call('event.booking.find', {
        token: w.adminA,
        query: { eventID, selection: 'all', limit: 1, offset: 1, paginated: 1 },
      });
      expect([page.count, page.total]).toEqual([1, '2']);
      expect(page.data[0].bookingID).toBe(a.bookingID);
      expect((await c.call('event.booking.find', { token: w.adminA, query: { eventID, selection: 'old' } })).text).toBe('400 selection must be all, fresh or used'); // prettier-ignore
    });

    it('books an e-mail once per event, also when the same booking is sent concurrently', async () => {
      const eventID = await newEvent();
      const replies = await Promise.all(
        Array.from({ length: 6 }, () => create(eventID, { email: 'twice@booking.test' })),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      expect(replies.filter((r) => r.status === 409).map((r) => r.text)).toContain('409 this e-mail has a booking for this event already'); // prettier-ignore
      // Another event takes the same e-mail.
      expect((await create(await newEvent(), { email: 'twice@booking.test' })).status).toBe(200);
    });

    it("takes counts from the event's stock, never more than it, also concurrently", async () => {
      const eventID = await newEvent();
      expect((await stock(eventID, 'dataCollectors', 5)).data[0]).toEqual({ eventID, item: 'dataCollectors', total: '5', booked: '0' }); // prettier-ignore
      const replies = await Promise.all(
        Array.from({ length: 5 }, (_, i) => create(eventID, { email: `s${i}@booking.test`, dataCollectors: '2' })),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(2);
      for (const r of replies.filter((x) => x.status !== 200)) expect(r.text).toBe('409 not enough dataCollectors left: 1 of 5'); // prettier-ignore
      // A refused booking is not kept; one that fits the rest (or takes none) passes.
      expect(await c.ok('event.booking.find', { token: w.adminA, query: { eventID, selection: 'all' } })).toHaveLength(
        2,
      );
      expect((await create(eventID, { email: 'one@booking.test', dataCollectors: '1' })).status).toBe(200);
      expect((await create(eventID, { email: 'none@booking.test', dataCollectors: '0' })).status).toBe(200);
      expect((await stock(eventID, 'dataCollectors', 4)).text).toBe('409 bookings took 5 dataCollectors already');
      expect((await stock(eventID, 'dataCollectors', 7)).data[0]).toMatchObject({ total: '7', booked: '5' });
      // Items without a stock are not limited.
      expect((await create(eventID, { email: 'many@booking.test', dataCollectors: '0', beacons: '10000' })).status).toBe(200); // prettier-ignore
    });

    it.each([
      ['a blank name', { name: '   ' }, /^400 name/],
      ['a bad e-mail', { email: 'nope' }, /^400 email/],
      ['too many beacons', { beacons: '10001' }, /^400 beacons must be an integer from 0 to 10000/],
      ['a negative count', { extraPhone: '-1' }, /^400 extraPhone/],
      ['a non-bit automaticReport', { automaticReport: '2' }, /^400 automaticReport must be 0 or 1/],
      ['an empty pricing', { pricing: '' }, /^400 pricing/],
    ])('refuses %s', async (_, body, line) => {
      const eventID = await newEvent();
      expect((await create(eventID, body)).text).toMatch(line);
    });

    it.each([
      // Each with the parameters it takes (a name it does not take is refused before the event is looked at).
      [
        'event.booking.create',
        (_v: string, n: string) => ({ query: {}, body: { ...BODY, email: `x-${n}@booking.test` } }),
      ],
      ['event.booking.find', () => ({ query: { selection: 'all' }, body: undefined })],
      ['event.booking.get', (v: string) => ({ query: { value: v }, body: undefined })],
      ['event.booking.use', (v: string) => ({ query: { value: v }, body: undefined })],
      ['event.booking.stock', () => ({ query: { item: 'beacons' }, body: { value: '3' } })],
    ] as const)(
      "%s: another company's admin gets what a missing event gets; an attendee is refused",
      async (name, of) => {
        const eventID = w.eventA.eventID;
        const b = (await create(eventID, { email: `idor-${style}-${name}@booking.test` })).data[0] as Record<
          string,
          string
        >;
        const sent = of(b.value, `${style}-${name}`);
        const query = { eventID, ...sent.query };
        const body = sent.body;
        const missing = await c.call(name, { token: w.adminA, query: { ...query, eventID: '999999' }, body });
        expect(missing.text).toBe('404 event not found');
        expect((await c.call(name, { token: w.adminB, query, body })).text).toBe(missing.text);
        expect((await c.call(name, { token: w.attendee, query, body })).status).toBe(403);
      },
    );
  });
});
