// Attendee self-service with the event-scope token of a magic link (issue 18, contract item 4), on both
// stores: the attendee reads and edits their own record, enrols in and leaves sessions (capacity, the
// waiting list and its position in activity.find, lockOperations), lists and removes their own guests,
// and cancels their registration ('event.person.dismiss' without personID: seats freed, the waiting
// list promoted, a second call answering as the first). IDOR: another attendee's token, an expired or
// revoked token, an organizer of another company, an event-scope token of event A on event B.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLink } from '../../src/platform/resources/person/magic.ts';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

const nowS = () => Math.floor(Date.now() / 1000);

describe.each(STORES)('attendee self-service on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventA: number;
  let eventB: number;
  let n = 0;

  /** A new attendee of `eventID` (default A) and the event-scope token its magic link exchanges for. */
  async function attendee(eventID = eventA) {
    const email = `self-${kind}-${++n}@podium.test`;
    const personID = await p.person(email, 'irrelevant password');
    // The badge code as enrollInEvent makes it (p.enrol writes the row as given).
    await p.enrol(eventID, personID, { qrCode: `qr-${kind}-${n}-0123456789` });
    const code = (await issueLink(p.db, eventID, personID, nowS(), 900))!;
    const [record] = await p.ok('person.signInLink', { query: { eventID }, body: { code } });
    expect(record.scope).toBe('event');
    return { personID, token: record.tokenID, email };
  }
  async function activity(o: { capacity?: number; lockOperations?: number; eventID?: number } = {}) {
    const values = {
      eventID: o.eventID ?? eventA,
      name: `Session ${++n}`,
      capacity: o.capacity ?? 0,
      lockOperations: o.lockOperations ?? 0,
    };
    return Number(await p.insertRow('activity', values, 'activityID'));
  }
  const mine = async (token: string, eventID = eventA) =>
    (await p.ok('activity.find', { token, query: { eventID, selection: 'enrolled' } })).map((a) => [
      Number(a.activityID),
      a.approved,
      a.position,
    ]);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    eventA = Number(w.eventA.eventID);
    eventB = Number(w.eventB.eventID);
    await p.ok('form.edit', { token: w.adminA, query: { eventID: eventA, key: 'guestsForMember' }, body: { value: 2 } }); // prettier-ignore
  });
  afterAll(async () => p?.close());

  it('reads and edits only the attendee’s own record', async () => {
    const me = await attendee();
    const other = await attendee();
    const [own] = await p.ok('event.person.get', { token: me.token, query: { eventID: eventA } });
    expect(own.personID).toBe(String(me.personID));
    expect(own.qrCode).toBe(`qr-${kind}-${n - 1}-0123456789`);
    const theirs = await p.call('event.person.get', { token: me.token, query: { eventID: eventA, personID: other.personID } }); // prettier-ignore
    expect(theirs.status).toBe(403);
    const [edited] = await p.ok('event.person.operate', { token: me.token, query: { eventID: eventA, key: 'company' }, body: { value: 'Mine Ltd' } }); // prettier-ignore
    expect(edited.company).toBe('Mine Ltd');
    const other1 = await p.call('event.person.operate', { token: me.token, query: { eventID: eventA, key: 'company', personID: other.personID }, body: { value: 'X' } }); // prettier-ignore
    expect(other1.status).toBe(403);
    const level = await p.call('event.person.operate', { token: me.token, query: { eventID: eventA, key: 'level' }, body: { value: 4 } }); // prettier-ignore
    expect(level.status).toBe(403);
  });

  it('enrols and leaves sessions: capacity, waiting-list position, promotion, lockOperations', async () => {
    const first = await attendee();
    const me = await attendee();
    const full = await activity({ capacity: 1 });
    await p.ok('activity.person.bind', { token: first.token, query: { activityID: full } });
    const [queued] = await p.ok('activity.person.bind', { token: me.token, query: { activityID: full } });
    expect(queued.approved).toBe('0');
    expect(await mine(me.token)).toEqual([[full, '0', '1']]);
    expect(await mine(first.token)).toEqual([[full, '1', '0']]);
    // Someone else's seat is not mine to give up.
    const idor = await p.call('activity.person.dismiss', { token: me.token, query: { activityID: full, personID: first.personID } }); // prettier-ignore
    expect(idor.status).toBe(403);
    await p.ok('activity.person.dismiss', { token: first.token, query: { activityID: full } });
    expect(await mine(me.token)).toEqual([[full, '1', '0']]);
    const locked = await activity({ lockOperations: 1 });
    expect((await p.call('activity.person.bind', { token: me.token, query: { activityID: locked } })).status).toBe(403);
  });

  it('lists and removes only the attendee’s own guests', async () => {
    const me = await attendee();
    const other = await attendee();
    const [mineGuest] = await p.ok('event.guest.bind', { token: me.token, query: { eventID: eventA }, body: { name: 'My Guest' } }); // prettier-ignore
    const [theirGuest] = await p.ok('event.guest.bind', { token: other.token, query: { eventID: eventA }, body: { name: 'Their Guest' } }); // prettier-ignore
    const listed = await p.ok('event.guest.find', { token: me.token, query: { eventID: eventA } });
    expect(listed.map((g) => g.name)).toEqual(['My Guest']);
    const idor = await p.call('event.guest.dismiss', { token: me.token, query: { eventID: eventA, personID: theirGuest.personID } }); // prettier-ignore
    expect([403, 404]).toContain(idor.status);
    expect(await p.ok('event.guest.find', { token: other.token, query: { eventID: eventA } })).toHaveLength(1);
    await p.ok('event.guest.dismiss', { token: me.token, query: { eventID: eventA, personID: mineGuest.personID } });
    expect(await p.ok('event.guest.find', { token: me.token, query: { eventID: eventA } })).toEqual([]);
  });

  it('cancels the registration: seats freed, the waiting list promoted, the same answer twice', async () => {
    const me = await attendee();
    const waiting = await attendee();
    const session = await activity({ capacity: 1 });
    await p.ok('activity.person.bind', { token: me.token, query: { activityID: session } });
    await p.ok('activity.person.bind', { token: waiting.token, query: { activityID: session } });
    expect(await mine(waiting.token)).toEqual([[session, '0', '1']]);
    // Another event-scope token of the same person for this event (the event password's) ends with it.
    const second = (await issueLink(p.db, eventA, me.personID, nowS(), 900))!;
    const [{ tokenID: other }] = await p.ok('person.signInLink', {
      query: { eventID: eventA },
      body: { code: second },
    });

    const first = await p.call('event.person.dismiss', { token: me.token, query: { eventID: eventA } });
    expect([first.status, first.text]).toEqual([200, '{"count":"0","data":[]}']);
    const again = await p.call('event.person.dismiss', { token: me.token, query: { eventID: eventA } });
    expect([again.status, again.text]).toEqual([200, '{"count":"0","data":[]}']);
    expect(await mine(waiting.token)).toEqual([[session, '1', '0']]);
    const row = await p.db.selectFrom('eventPerson').select('personID').where('eventID', '=', eventA).where('personID', '=', me.personID).executeTakeFirst(); // prettier-ignore
    expect(row).toBeUndefined();
    // The calling token opens nothing of the event any more; the person's other token of it is gone.
    expect((await p.call('event.person.get', { token: me.token, query: { eventID: eventA } })).status).toBe(404);
    expect((await p.call('event.person.get', { token: other, query: { eventID: eventA } })).status).toBe(401);
    // It cannot reach anyone else either.
    const after = await p.call('event.person.dismiss', { token: me.token, query: { eventID: eventA, personID: waiting.personID } }); // prettier-ignore
    expect(after.status).toBe(403);
    // The change of the cancel is about the person (webhooks, push guards).
    const change = await p.db.selectFrom('change').select(['kind', 'objectID']).where('operation', '=', 'event.person.dismiss').orderBy('changeID', 'desc').executeTakeFirstOrThrow(); // prettier-ignore
    expect(change).toEqual({ kind: 'event.person', objectID: me.personID });
  });

  describe('IDOR: nobody cancels someone else’s registration', () => {
    const stillThere = async (eventID: number, personID: number) =>
      (await p.db.selectFrom('eventPerson').select('personID').where('eventID', '=', eventID).where('personID', '=', personID).executeTakeFirst()) !== undefined; // prettier-ignore

    it('another attendee’s token, naming the victim', async () => {
      const victim = await attendee();
      const other = await attendee();
      const r = await p.call('event.person.dismiss', { token: other.token, query: { eventID: eventA, personID: victim.personID } }); // prettier-ignore
      expect([r.status, r.text]).toEqual([403, '403 an event-scope token cannot do this']);
      const sys = await p.call('event.person.dismiss', { token: w.attendeeSystem, query: { eventID: eventA, personID: victim.personID } }); // prettier-ignore
      expect(sys.status).toBe(403);
      expect(await stillThere(eventA, victim.personID)).toBe(true);
    });

    it('an expired or signed-out token', async () => {
      const victim = await attendee();
      const expired = await attendee();
      await p.db
        .updateTable('token')
        .set({ expiresAt: nowS() - 1 })
        .where('personID', '=', expired.personID)
        .execute();
      const r1 = await p.call('event.person.dismiss', { token: expired.token, query: { eventID: eventA } });
      expect(r1.status).toBe(401);
      const out = await attendee();
      await p.ok('person.signOut', { token: out.token, method: 'POST' });
      for (const t of [expired, out]) {
        const r = await p.call('event.person.dismiss', { token: t.token, query: { eventID: eventA, personID: victim.personID } }); // prettier-ignore
        expect(r.status).toBe(401);
      }
      expect(await stillThere(eventA, expired.personID)).toBe(true);
      expect(await stillThere(eventA, out.personID)).toBe(true);
      expect(await stillThere(eventA, victim.personID)).toBe(true);
    });

    it('an organizer of another company', async () => {
      const victim = await attendee();
      const r = await p.call('event.person.dismiss', { token: w.adminB, query: { eventID: eventA, personID: victim.personID } }); // prettier-ignore
      expect([r.status, r.text]).toEqual([404, '404 event not found']);
      const own = await p.call('event.person.dismiss', { token: w.adminB, query: { eventID: eventA } });
      expect(own.status).toBe(404);
      expect(await stillThere(eventA, victim.personID)).toBe(true);
    });

    it('an event-scope token of event A on event B', async () => {
      // The same person in both events: their token of A must not cancel B, nor read or edit it.
      const both = await attendee();
      await p.enrol(eventB, both.personID);
      for (const [op, query, body] of [
        ['event.person.dismiss', { eventID: eventB }, undefined],
        ['event.person.get', { eventID: eventB }, undefined],
        ['event.person.operate', { eventID: eventB, key: 'company' }, { value: 'X' }],
        ['event.guest.find', { eventID: eventB }, undefined],
      ] as const) {
        const r = await p.call(op, { token: both.token, query, ...(body ? { body } : {}) });
        expect([op, r.status]).toEqual([op, 404]);
      }
      expect(await stillThere(eventB, both.personID)).toBe(true);
    });
  });
});
