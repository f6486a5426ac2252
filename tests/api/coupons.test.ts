import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

// Coupons (issue 16, docs/api/coupons.md): coupon.create / coupon.get, and the registration form taking
// a coupon where the event has a ticket price — on both stores, in both call styles.

describe.each(STORES)('coupons on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let seq = 0;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  async function newEvent(price?: number) {
    seq++;
    const [{ eventID }] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: `Coupon ${seq}`, nickname: `coupon-${seq}` },
    });
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
    if (price !== undefined)
      await p.ok('event.ticket.edit', { token: w.adminA, query: { eventID }, body: { price, currency: 'EUR' } });
    return eventID;
  }
  const create = (eventID: string, body: Record<string, string | number>, style: 'rpc' | 'rest' = 'rpc') =>
    p.call('coupon.create', { token: w.adminA, style, query: { eventID }, body });
  const get = (eventID: string, code: string, token = w.adminA, style: 'rpc' | 'rest' = 'rpc') =>
    p.call('coupon.get', { token, style, query: { eventID }, body: { code } });
  const register = (eventID: string, email: string, coupon?: string) =>
    p.call('form.respondRegistration', {
      query: { eventID },
      body: { firstName: 'Ana', lastName: 'Lima', email, feedbackContent: '[]', ...(coupon ? { coupon } : {}) },
    });

  describe.each(['rpc', 'rest'] as const)('%s', (style) => {
    it('creates a coupon with a 10-character Crockford code, and reads it back however it is typed', async () => {
      const eventID = await newEvent();
      const r = await create(eventID, { discount: 25 }, style);
      expect(r.status, r.text).toBe(200);
      const c = r.data[0] as Record<string, string>;
      expect(c).toMatchObject({
        eventID,
        discount: '25',
        used: '0',
        maxUses: '0',
        expires: '0',
        valid: '1',
        reason: '',
      });
      expect(c.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
      const typed = `${c.code.slice(0, 5)}-${c.code.slice(5)}`.toLowerCase().replaceAll('1', 'l').replaceAll('0', 'o');
      expect((await get(eventID, typed, w.adminA, style)).data[0]).toEqual(c);
    });
  });

  it('codes are drawn at random: 200 codes, no two alike, every character used', async () => {
    const eventID = await newEvent();
    const codes = [];
    for (let i = 0; i < 200; i++) codes.push((await create(eventID, { discount: 10 })).data[0].code as string);
    expect(new Set(codes).size).toBe(200);
    expect(new Set(codes.join('')).size).toBe(32);
  });

  it.each([
    ['discount above 100', { discount: 101 }, '400 discount must be an integer from 0 to 100'],
    ['a negative discount', { discount: -5 }, '400 discount must be an integer from 0 to 100'],
    ['no discount', {}, '400 discount cannot be empty'],
  ])('%s is refused', async (_label, body, text) => {
    const eventID = await newEvent();
    expect((await create(eventID, body)).text).toBe(text);
  });

  it.each([
    ['expired', { discount: 10, expires: 1_000_000_000 }, 0, 'expired'],
    ['used up', { discount: 10, maxUses: 1 }, 1, 'used up'],
  ])('an %s coupon shows as not valid, and the form refuses it', async (_label, body, uses, reason) => {
    const eventID = await newEvent(5000);
    const code = (await create(eventID, body)).data[0].code as string;
    for (let i = 0; i < uses; i++)
      expect((await register(eventID, `use${i}-${seq}@podium.test`, code)).status).toBe(200);
    expect((await get(eventID, code)).data[0]).toMatchObject({ valid: '0', reason });
    expect((await register(eventID, `late-${seq}@podium.test`, code)).text).toBe(`409 coupon is ${reason}`);
  });

  it('the form stores the discount on the enrollment and counts the use; sending it again uses nothing', async () => {
    const eventID = await newEvent(5000);
    const code = (await create(eventID, { discount: 40, maxUses: 2 })).data[0].code as string;
    const r = await register(eventID, 'paying@podium.test', code);
    expect(r.status, r.text).toBe(200);
    const personID = Number(r.data[0].personID);
    const row = await p.db.selectFrom('eventPerson').select('discount').where('eventID', '=', Number(eventID)).where('personID', '=', personID).executeTakeFirstOrThrow(); // prettier-ignore
    expect(row.discount).toBe(40);
    expect((await register(eventID, 'paying@podium.test', code)).status).toBe(200);
    expect((await get(eventID, code)).data[0]).toMatchObject({ used: '1', valid: '1' });
  });

  it.each([
    ['an event without a ticket price', undefined, 'valid', '400 coupon does not apply: the event has no ticket price'],
    ['an unknown code', 5000, 'unknown', '404 coupon not found'],
    ["another event's code", 5000, 'other', '404 coupon not found'],
  ])('%s: the form refuses it and registers nobody', async (_label, price, which, text) => {
    const other = await newEvent(5000);
    const eventID = await newEvent(price);
    const own = (await create(eventID, { discount: 10 })).data[0].code as string;
    const code = which === 'valid' ? own : which === 'other' ? ((await create(other, { discount: 10 })).data[0].code as string) : 'ZZZZZZZZZZ'; // prettier-ignore
    expect((await register(eventID, `refused-${seq}@podium.test`, code)).text).toBe(text);
    const n = await p.db.selectFrom('eventPerson').select('personID').where('eventID', '=', Number(eventID)).execute();
    expect(n).toEqual([]);
  });

  it.each([
    ['an attendee creating', 'attendee', 'create', '403'],
    ["another company's admin creating", 'adminB', 'create', '404 event not found'],
    ["another company's admin reading", 'adminB', 'get', '404 event not found'],
  ] as const)('%s is refused like a missing event', async (_label, who, op, text) => {
    const eventID = w.eventA.eventID;
    const code = (await create(eventID, { discount: 10 })).data[0].code as string;
    const r =
      op === 'create'
        ? await p.call('coupon.create', { token: w[who], query: { eventID }, body: { discount: 10 } })
        : await get(eventID, code, w[who]);
    expect(r.text.startsWith(text)).toBe(true);
  });

  it('an attendee of the event may read a coupon', async () => {
    const code = (await create(w.eventA.eventID, { discount: 15 })).data[0].code as string;
    expect((await get(w.eventA.eventID, code, w.attendee)).data[0]).toMatchObject({ discount: '15', valid: '1' });
  });
});
