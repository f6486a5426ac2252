import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';

// Beacons (issue 17, docs/api/beacons.md): a company's beacons ('beacon.create', 'beacon.find',
// 'beacon.remove'), bound to events ('beacon.event.bind', 'beacon.event.dismiss', 'beacon.event.find'),
// their actions ('beacon.action.create', 'beacon.action.edit', 'beacon.action.remove',
// 'beacon.action.find') and the log ('beacon.log.bind', 'beacon.log.count') — both stores, both styles.

const UUID = 'F7826DA6-4FA2-4E98-8024-BC5B71E0893E';

describe.each(STORES)('beacons on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let seq = 0;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  const changes = async (operation: string) =>
    (
      await p.db
        .selectFrom('change')
        .select('objectID')
        .where('operation', '=', operation)
        .orderBy('changeID')
        .execute()
    ).map((r) => String(r.objectID));

  describe.each(STYLES)('%s', (style) => {
    const c = () => client(p, style);
    /** A beacon of company A with a minor no other beacon of A has. */
    const newBeacon = async (body: Record<string, string | number> = {}) => {
      seq++;
      return (
        await c().ok('beacon.create', {
          token: w.adminA,
          query: { companyID: w.companyA.companyID },
          body: { uuid: UUID, major: 7, minor: 1000 + seq, name: `Door ${seq}`, ...body },
        })
      )[0];
    };
    const eventID = () => w.eventA.eventID;
    const bind = (query: Record<string, string | number>, token = w.adminA) =>
      c().call('beacon.event.bind', { token, query: { eventID: eventID(), ...query } });
    const bound = async (query: Record<string, string | number> = {}) => {
      const b = await newBeacon();
      const r = await bind({ beaconID: b.beaconID, ...query });
      expect(r.status, r.text).toBe(200);
      return r.data[0] as Record<string, string>;
    };
    const action = async (beaconEventID: string, body: Record<string, string | number> = {}) =>
      (
        await c().ok('beacon.action.create', {
          token: w.adminA,
          query: { beaconEventID },
          body: { type: 'message', title: 'Welcome', message: 'Coffee at the bar', ...body },
        })
      )[0];

    it('registers a company beacon (uuid answered lower case), lists it, refuses a second of the same identity, removes it', async () => {
      const b = await newBeacon();
      expect(b).toMatchObject({ companyID: w.companyA.companyID, uuid: UUID.toLowerCase(), major: '7', name: `Door ${seq}` }); // prettier-ignore
      const list = await c().ok('beacon.find', { token: w.adminA, query: { companyID: w.companyA.companyID, limit: 100 } }); // prettier-ignore
      expect(list.map((r) => r.beaconID)).toContain(b.beaconID);
      await c().fail('beacon.create', { token: w.adminA, query: { companyID: w.companyA.companyID }, body: { uuid: UUID, major: 7, minor: b.minor } }, 409, /beacon of this uuid, major and minor already/); // prettier-ignore
      // Another company's admin: the company is not there for them.
      await c().fail('beacon.find', { token: w.adminB, query: { companyID: w.companyA.companyID } }, 404);
      await c().fail('beacon.remove', { token: w.adminB, query: { companyID: w.companyA.companyID, beaconID: b.beaconID } }, 404); // prettier-ignore
      // A beacon of company A named under company B is not found.
      await c().fail('beacon.remove', { token: w.adminB, query: { companyID: w.companyB.companyID, beaconID: b.beaconID } }, 404, /^404 beacon not found$/); // prettier-ignore
      const gone = await c().ok('beacon.remove', { token: w.adminA, query: { companyID: w.companyA.companyID, beaconID: b.beaconID } }); // prettier-ignore
      expect(gone[0]).toEqual(b);
      expect(await changes('beacon.remove')).toContain(b.beaconID);
    });

    it.each([
      ['a uuid that is not one', { uuid: 'not-a-uuid' }, /^400 uuid must be a UUID/],
      ['major above 65535', { major: 65536 }, /^400 major must be an integer from 0 to 65535$/],
      ['a negative minor', { minor: -1 }, /^400 minor must be an integer from 0 to 65535$/],
      ['no uuid', { uuid: '' }, /^400 uuid cannot be empty$/],
    ])('beacon.create refuses %s', async (_label, body, message) => {
      await c().fail('beacon.create', { token: w.adminA, query: { companyID: w.companyA.companyID }, body: { uuid: UUID, major: 1, minor: 1, ...body } }, 400, message); // prettier-ignore
    });

    it('binds by beaconID and by minor; binding again sets type, range and extra; each bind records its change', async () => {
      const b1 = await newBeacon();
      const r1 = await bind({ beaconID: b1.beaconID });
      expect(r1.status, r1.text).toBe(200);
      expect(r1.data[0]).toMatchObject({ eventID: eventID(), beaconID: b1.beaconID, type: 'other', range: 'near', extra: '', uuid: UUID.toLowerCase(), major: '7', minor: b1.minor, actions: '0' }); // prettier-ignore
      const b2 = await newBeacon();
      const r2 = await bind({ minor: b2.minor, type: 'booth', range: 'immediate', extra: 'Stand 12' });
      expect(r2.data[0]).toMatchObject({ beaconID: b2.beaconID, type: 'booth', range: 'immediate', extra: 'Stand 12' }); // prettier-ignore
      const again = await bind({ beaconID: b1.beaconID, range: 'far' });
      expect(again.data[0]).toMatchObject({ beaconEventID: r1.data[0].beaconEventID, type: 'other', range: 'far' });
      const binds = await changes('beacon.event.bind');
      expect(binds).toEqual(expect.arrayContaining([r1.data[0].beaconEventID, r2.data[0].beaconEventID]));
    });

    it.each([
      ['neither beaconID nor minor', {}, 400, /^400 /],
      ['an unknown beaconID', { beaconID: 999999 }, 404, /^404 beacon not found$/],
      ['an unknown minor', { minor: 65000 }, 404, /^404 beacon not found$/],
      ['a bad type', { beaconID: 1, type: 'lamp' }, 400, /^400 type must be one of entrance, room, booth, stand, other$/], // prettier-ignore
      ['a bad range', { beaconID: 1, range: 'close' }, 400, /^400 range must be one of immediate, near, far$/],
    ])('bind refuses %s', async (_label, query, status, message) => {
      await c().fail('beacon.event.bind', { token: w.adminA, query: { eventID: eventID(), ...query } }, status, message); // prettier-ignore
    });

    it("a beacon of another company is not found; a minor several of the company's beacons share is a conflict", async () => {
      seq++;
      const [other] = await c().ok('beacon.create', { token: w.adminB, query: { companyID: w.companyB.companyID }, body: { uuid: UUID, major: 1, minor: 2000 + seq } }); // prettier-ignore
      expect((await bind({ beaconID: other.beaconID })).text).toBe('404 beacon not found');
      expect((await bind({ minor: other.minor })).text).toBe('404 beacon not found');
      const a = await newBeacon();
      await newBeacon({ major: 8, minor: a.minor });
      expect((await bind({ minor: a.minor })).text).toBe('409 several beacons of the company have this minor; name one by beaconID'); // prettier-ignore
    });

    it.each([
      ["another company's admin", () => w.adminB, 404],
      ['an attendee', () => w.attendee, 403],
      ['an event-scope admin (downgraded to user)', () => w.eventAdminEventScope, 403],
    ])('%s cannot bind or dismiss', async (_label, token, status) => {
      const b = await newBeacon();
      await c().fail('beacon.event.bind', { token: token(), query: { eventID: eventID(), beaconID: b.beaconID } }, status); // prettier-ignore
      await c().fail('beacon.event.dismiss', { token: token(), query: { eventID: eventID(), minor: b.minor } }, status); // prettier-ignore
    });

    it.each(['beaconID', 'minor'] as const)(
      'dismisses by %s, answering the binding as it was; its actions go with it',
      async (form) => {
        // prettier-ignore
        const be = await bound();
        const a = await action(be.beaconEventID);
        const r = await c().ok('beacon.event.dismiss', { token: w.adminA, query: { eventID: eventID(), [form]: be[form] } }); // prettier-ignore
        expect(r[0]).toMatchObject({ beaconEventID: be.beaconEventID, actions: '1' });
        expect((await c().call('beacon.event.dismiss', { token: w.adminA, query: { eventID: eventID(), [form]: be[form] } })).text).toBe('404 beacon not found'); // prettier-ignore
        expect((await c().call('beacon.action.edit', { token: w.adminA, query: { beaconActionID: a.beaconActionID, key: 'title' }, body: { value: 'x' } })).text).toBe('404 beaconAction not found'); // prettier-ignore
        expect(await changes('beacon.event.dismiss')).toContain(be.beaconEventID);
      },
    );

    it('find: `all` lists every bound beacon, `has-action` those with an action; attendees count active actions only', async () => {
      const { eventID: ev } = (await c().ok('company.event.bind', { token: w.adminA, query: { companyID: w.companyA.companyID }, body: { name: `Beacons ${++seq}`, nickname: `beacons-${style}-${seq}` } }))[0]; // prettier-ignore
      const mk = async () => {
        const b = await newBeacon();
        return (await c().ok('beacon.event.bind', { token: w.adminA, query: { eventID: ev, beaconID: b.beaconID } }))[0]; // prettier-ignore
      };
      const [plain, withAction, paused] = [await mk(), await mk(), await mk()];
      await action(withAction.beaconEventID);
      const p1 = await action(paused.beaconEventID);
      await c().ok('beacon.action.edit', { token: w.adminA, query: { beaconActionID: p1.beaconActionID, key: 'active' }, body: { value: '0' } }); // prettier-ignore
      const find = (selection: string) => c().ok('beacon.event.find', { token: w.adminA, query: { eventID: ev, selection } }); // prettier-ignore
      expect((await find('all')).map((r) => r.beaconEventID)).toEqual([plain, withAction, paused].map((r) => r.beaconEventID)); // prettier-ignore
      expect((await find('has-action')).map((r) => [r.beaconEventID, r.actions])).toEqual([[withAction.beaconEventID, '1'], [paused.beaconEventID, '1']]); // prettier-ignore
      await c().fail('beacon.event.find', { token: w.adminA, query: { eventID: ev, selection: 'some' } }, 400, /^400 selection must be all or has-action$/); // prettier-ignore
      // The attendee of event A: a member reads event A's beacons, without the paused action.
      const mine = await c().ok('beacon.event.find', { token: w.attendee, query: { eventID: eventID(), selection: 'has-action', limit: 100 } }); // prettier-ignore
      expect(mine.every((r) => r.actions !== '0')).toBe(true);
      const paged = await c().call('beacon.event.find', { token: w.adminA, query: { eventID: ev, selection: 'all', limit: 2, paginated: 1 } }); // prettier-ignore
      expect([paged.count, paged.total]).toEqual([2, '3']);
      await c().fail('beacon.event.find', { token: w.adminB, query: { eventID: ev, selection: 'all' } }, 404);
    });

    it('actions: a message or a link; edited by key; listed (attendees see active ones); removed', async () => {
      const be = await bound();
      const m = await action(be.beaconEventID);
      expect(m).toMatchObject({ beaconEventID: be.beaconEventID, eventID: eventID(), beaconID: be.beaconID, type: 'message', title: 'Welcome', message: 'Coffee at the bar', url: '', active: '1' }); // prettier-ignore
      const u = await action(be.beaconEventID, { type: 'url', title: 'Map', message: '', url: 'https://example.com/map' }); // prettier-ignore
      expect(u).toMatchObject({ type: 'url', url: 'https://example.com/map' });
      const edit = (beaconActionID: string, key: string, value: string) =>
        c().call('beacon.action.edit', { token: w.adminA, query: { beaconActionID, key }, body: { value } });
      expect((await edit(m.beaconActionID, 'title', 'Hello')).data[0]).toMatchObject({ title: 'Hello' });
      expect((await edit(m.beaconActionID, 'active', '0')).data[0]).toMatchObject({ active: '0' });
      expect((await edit(u.beaconActionID, 'url', '')).text).toBe('400 url cannot be empty for an action of type url');
      expect((await edit(m.beaconActionID, 'message', '')).text).toBe('400 message cannot be empty for an action of type message'); // prettier-ignore
      expect((await edit(m.beaconActionID, 'type', 'url')).text).toMatch(/^400 key type cannot be edited here; keys: title, message, url, active$/); // prettier-ignore
      expect((await edit(u.beaconActionID, 'url', 'javascript:alert(1)')).text).toBe('400 value must be an http or https URL (key url)'); // prettier-ignore
      const list = (token: string) => c().ok('beacon.action.find', { token, query: { eventID: eventID(), beaconEventID: be.beaconEventID } }); // prettier-ignore
      expect((await list(w.adminA)).map((r) => r.beaconActionID)).toEqual([m.beaconActionID, u.beaconActionID]);
      expect((await list(w.attendee)).map((r) => r.beaconActionID)).toEqual([u.beaconActionID]);
      const removed = await c().ok('beacon.action.remove', { token: w.adminA, query: { beaconActionID: u.beaconActionID } }); // prettier-ignore
      expect(removed[0].beaconActionID).toBe(u.beaconActionID);
      expect((await list(w.adminA)).map((r) => r.beaconActionID)).toEqual([m.beaconActionID]);
      expect(await changes('beacon.action.edit')).toContain(m.beaconActionID);
      expect(await changes('beacon.action.create')).toEqual(expect.arrayContaining([m.beaconActionID, u.beaconActionID])); // prettier-ignore
    });

    it.each([
      [
        'a message action without message',
        { message: '' },
        '400 message cannot be empty for an action of type message',
      ],
      ['a url action without url', { type: 'url' }, '400 url cannot be empty for an action of type url'],
      ['a bad type', { type: 'video' }, '400 type must be one of message, url'],
      ['a blank title', { title: '   ' }, '400 title cannot be blank'],
    ])('beacon.action.create refuses %s', async (_label, body, text) => {
      const be = await bound();
      const r = await c().call('beacon.action.create', { token: w.adminA, query: { beaconEventID: be.beaconEventID }, body: { type: 'message', title: 'T', message: 'M', ...body } }); // prettier-ignore
      expect(r.text).toBe(text);
    });

    it('actions: another company admin gets 404, an attendee 403; a beacon event of another event is not found', async () => {
      const be = await bound();
      const a = await action(be.beaconEventID);
      const body = { type: 'message', title: 'T', message: 'M' };
      await c().fail('beacon.action.create', { token: w.adminB, query: { beaconEventID: be.beaconEventID }, body }, 404, /^404 beaconEvent not found$/); // prettier-ignore
      await c().fail('beacon.action.create', { token: w.attendee, query: { beaconEventID: be.beaconEventID }, body }, 403); // prettier-ignore
      await c().fail('beacon.action.remove', { token: w.adminB, query: { beaconActionID: a.beaconActionID } }, 404, /^404 beaconAction not found$/); // prettier-ignore
      await c().fail('beacon.action.remove', { token: w.attendee, query: { beaconActionID: a.beaconActionID } }, 403);
      await c().fail('beacon.action.find', { token: w.adminB, query: { eventID: eventID() } }, 404);
      await c().fail('beacon.action.find', { token: w.adminB, query: { eventID: w.eventB.eventID, beaconEventID: be.beaconEventID } }, 404, /^404 beaconEvent not found$/); // prettier-ignore
    });

    it('log: an attendee logs their own meeting (personID defaults to them); the same meeting within a minute is not added; counts per beacon and per event', async () => {
      const be = await bound();
      const a = await action(be.beaconEventID);
      const other = await bound();
      const o = await action(other.beaconEventID);
      const log = (query: Record<string, string | number>, token = w.attendee) => c().call('beacon.log.bind', { token, query }); // prettier-ignore
      const first = await log({ beaconActionID: a.beaconActionID });
      expect(first.status, first.text).toBe(200);
      expect(first.data[0]).toMatchObject({ beaconActionID: a.beaconActionID, beaconEventID: be.beaconEventID, eventID: eventID(), personID: String(w.attendeeID), created: '1' }); // prettier-ignore
      const again = await log({ beaconActionID: a.beaconActionID, personID: w.attendeeID });
      expect(again.data[0]).toMatchObject({ beaconLogID: first.data[0].beaconLogID, created: '0' });
      // An admin logs for an attendee: a second person at the same beacon.
      const [admin] = await c().ok('beacon.event.find', { token: w.adminA, query: { eventID: eventID(), selection: 'all', limit: 1 } }); // prettier-ignore
      expect(admin).toBeDefined();
      const staffID = (await p.db.selectFrom('person').select('personID').where('email', '=', 'staff@podium.test').executeTakeFirstOrThrow()).personID; // prettier-ignore
      expect((await log({ beaconActionID: a.beaconActionID, personID: staffID }, w.adminA)).data[0]).toMatchObject({ personID: String(staffID), created: '1' }); // prettier-ignore
      await log({ beaconActionID: o.beaconActionID });
      const count = (query: Record<string, string>) => c().ok('beacon.log.count', { token: w.adminA, query });
      expect(await count({ beaconEventID: be.beaconEventID })).toEqual([{ eventID: eventID(), beaconEventID: be.beaconEventID, count: '2', people: '2' }]); // prettier-ignore
      expect(await count({ beaconEventID: other.beaconEventID })).toEqual([{ eventID: eventID(), beaconEventID: other.beaconEventID, count: '1', people: '1' }]); // prettier-ignore
      const whole = (await count({ eventID: eventID() }))[0];
      expect(whole.beaconEventID).toBe('');
      expect(Number(whole.count)).toBeGreaterThanOrEqual(3);
      expect(await changes('beacon.log.bind')).toEqual(expect.arrayContaining([first.data[0].beaconLogID]));
    });

    it('log: an attendee may not log for someone else (403); an admin not for a non-attendee (404); a paused action is a conflict; count is for admins', async () => {
      const be = await bound();
      const a = await action(be.beaconEventID);
      const staffID = (await p.db.selectFrom('person').select('personID').where('email', '=', 'staff@podium.test').executeTakeFirstOrThrow()).personID; // prettier-ignore
      const adminBID = (await p.db.selectFrom('person').select('personID').where('email', '=', 'admin-b@podium.test').executeTakeFirstOrThrow()).personID; // prettier-ignore
      await c().fail('beacon.log.bind', { token: w.attendee, query: { beaconActionID: a.beaconActionID, personID: staffID } }, 403, /^403 an attendee may log only their own meetings$/); // prettier-ignore
      await c().fail('beacon.log.bind', { token: w.adminA, query: { beaconActionID: a.beaconActionID, personID: adminBID } }, 404, /^404 person not found$/); // prettier-ignore
      await c().fail('beacon.log.bind', { token: w.adminB, query: { beaconActionID: a.beaconActionID } }, 404, /^404 beaconAction not found$/); // prettier-ignore
      await c().fail('beacon.log.bind', { token: w.attendee, query: { beaconActionID: 999999 } }, 404, /^404 beaconAction not found$/); // prettier-ignore
      await c().ok('beacon.action.edit', { token: w.adminA, query: { beaconActionID: a.beaconActionID, key: 'active' }, body: { value: '0' } }); // prettier-ignore
      await c().fail('beacon.log.bind', { token: w.attendee, query: { beaconActionID: a.beaconActionID } }, 409, /^409 the beacon action is paused$/); // prettier-ignore
      await c().fail('beacon.log.count', { token: w.attendee, query: { beaconEventID: be.beaconEventID } }, 403);
      await c().fail('beacon.log.count', { token: w.attendee, query: { eventID: eventID() } }, 403);
      await c().fail('beacon.log.count', { token: w.adminB, query: { beaconEventID: be.beaconEventID } }, 404, /^404 beaconEvent not found$/); // prettier-ignore
      await c().fail('beacon.log.count', { token: w.adminB, query: { eventID: eventID() } }, 404);
      await c().fail('beacon.log.count', { token: w.adminA, query: {} }, 400);
    });
  });

  it('log: at most 60 new meetings per person per minute in an event, then 429 with Retry-After', async () => {
    const [b] = await p.ok('beacon.create', { token: w.adminA, query: { companyID: w.companyA.companyID }, body: { uuid: UUID, major: 99, minor: 9 } }); // prettier-ignore
    const [be] = await p.ok('beacon.event.bind', { token: w.adminA, query: { eventID: w.eventA.eventID, beaconID: b.beaconID } }); // prettier-ignore
    const ids: string[] = [];
    for (let i = 0; i < 61; i++)
      ids.push((await p.ok('beacon.action.create', { token: w.adminA, query: { beaconEventID: be.beaconEventID }, body: { type: 'message', title: `A${i}`, message: 'M' } }))[0].beaconActionID); // prettier-ignore
    // A fresh attendee so earlier tests' meetings do not count.
    const { hashPassword } = await import('../../src/platform/auth/secrets.ts');
    const personID = await p.person('ranger@podium.test', 'correct horse battery');
    await p.enrol(Number(w.eventA.eventID), personID, { level: 1, passwordHash: await hashPassword('correct horse battery event') }); // prettier-ignore
    const token = await p.signIn('ranger@podium.test', 'correct horse battery event', Number(w.eventA.eventID));
    for (const id of ids.slice(0, 60)) await p.ok('beacon.log.bind', { token, query: { beaconActionID: id } });
    const r = await p.call('beacon.log.bind', { token, query: { beaconActionID: ids[60]! } });
    expect(r.text).toBe('429 too many beacon meetings logged for this person, wait a minute');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // A meeting already logged is still answered.
    expect((await p.ok('beacon.log.bind', { token, query: { beaconActionID: ids[0]! } }))[0].created).toBe('0');
  });
});
