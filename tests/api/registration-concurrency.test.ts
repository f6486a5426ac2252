// form.respondRegistration under concurrency, over real HTTP on both stores (spec §4.4): capacity holds
// exactly under simultaneous registrations, and one e-mail never makes two attendees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

const CAPACITY = 50;
const CALLS = 200;

describe.each(STORES)('registration under concurrency on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let n = 0;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  /** A new visible, public event of company A with these form settings. */
  async function event(settings: Record<string, string | number>) {
    n += 1;
    const { eventID } = (
      await p.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: `Rush ${n}`, nickname: `rush-${n}` },
      })
    )[0];
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
    for (const [key, value] of Object.entries(settings))
      await p.ok('form.edit', { token: w.adminA, query: { eventID, key }, body: { value } });
    return eventID;
  }

  const register = (eventID: string, email: string, style: 'rpc' | 'rest') =>
    p.call('form.respondRegistration', {
      style,
      query: { eventID },
      body: { firstName: 'Rush', lastName: email.split('@')[0], email, feedbackContent: '[]' },
    });

  const stored = async (eventID: string) => {
    const rows = await p.db
      .selectFrom('eventPerson')
      .select(['personID', 'approved'])
      .where('eventID', '=', Number(eventID))
      .execute();
    return { total: rows.length, approved: rows.filter((r) => r.approved === 1).length };
  };

  it(`${CALLS} simultaneous registrations against capacity ${CAPACITY}: exactly ${CAPACITY} approved, the rest 409`, async () => {
    const eventID = await event({ capacity: CAPACITY, waitingList: 0 });
    const replies = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => register(eventID, `full${i}@rush.test`, i % 2 ? 'rpc' : 'rest')),
    );
    const ok = replies.filter((r) => r.status === 200);
    const full = replies.filter((r) => r.status === 409);
    expect(ok).toHaveLength(CAPACITY);
    expect(full).toHaveLength(CALLS - CAPACITY);
    for (const r of full) expect(r.text).toBe('409 registration is full');
    for (const r of ok) expect(r.data[0]).toMatchObject({ eventID, approved: '1', duplicate: '0' });
    expect(new Set(ok.map((r) => r.data[0].personID)).size).toBe(CAPACITY);
    expect(await stored(eventID)).toEqual({ total: CAPACITY, approved: CAPACITY });
    // Every acknowledged registration is stored; none of the refused ones left a person behind.
    const people = await p.db.selectFrom('person').select('email').where('email', 'like', 'full%@rush.test').execute();
    expect(people.map((r) => r.email).sort()).toEqual(ok.map((r) => r.data[0].email as string).sort());
    const form = (await p.ok('form.get', { query: { eventID } }))[0];
    expect(form).toMatchObject({ remaining: '0', acceptsRegistrations: '0', reason: 'full' });
  });

  it(`with a waiting list: ${CAPACITY} approved and ${CALLS - CAPACITY} registered with approved 0`, async () => {
    const eventID = await event({ capacity: CAPACITY, waitingList: 1 });
    const replies = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => register(eventID, `wait${i}@rush.test`, i % 2 ? 'rpc' : 'rest')),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    const approved = replies.map((r) => r.data[0].approved);
    expect(approved.filter((a) => a === '1')).toHaveLength(CAPACITY);
    expect(approved.filter((a) => a === '0')).toHaveLength(CALLS - CAPACITY);
    expect(new Set(replies.map((r) => r.data[0].personID)).size).toBe(CALLS);
    expect(await stored(eventID)).toEqual({ total: CALLS, approved: CAPACITY });
    const form = (await p.ok('form.get', { query: { eventID } }))[0];
    expect(form).toMatchObject({ remaining: '0', acceptsRegistrations: '1', reason: '' });
  });

  it('20 simultaneous submits of one e-mail make one attendee, named by the first answer; the repeats name nobody', async () => {
    // A new person, the same with a capacity (event lock), and a person who existed before (row lock on them).
    for (const [settings, existing] of [
      [{}, false],
      [{ capacity: 5 }, false],
      [{}, true],
    ] as const) {
      const eventID = await event(settings);
      const email = `twice-${eventID}@rush.test`;
      if (existing) await p.person(email, 'an existing password');
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          register(eventID, i % 3 ? email : email.toUpperCase(), i % 2 ? 'rpc' : 'rest'),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
      const [first, ...repeats] = [...replies].sort(
        (a, b) => Number(a.data[0].duplicate) - Number(b.data[0].duplicate),
      );
      expect([first, ...repeats].map((r) => r.data[0].duplicate)).toEqual(['0', ...repeats.map(() => '1')]);
      // Anonymous repeats: not whose registration it is (docs/api/registration.md "Double submit").
      expect(new Set(repeats.map((r) => r.data[0].personID))).toEqual(new Set(['']));
      const ids = new Set([first.data[0].personID]);
      expect(await stored(eventID)).toEqual({ total: 1, approved: 1 });
      const people = await p.db.selectFrom('person').select('personID').where('email', '=', email).execute();
      expect(people.map((r) => String(r.personID))).toEqual([...ids]);
    }
  });
});
