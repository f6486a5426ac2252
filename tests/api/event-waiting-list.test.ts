// The event's own waiting list moves when an approved attendee leaves (issue 18: "cancel my registration
// (which frees seats and promotes the waiting list)"; docs/api/attendees.md "The event's waiting list"),
// on both stores: the attendee's own cancel and an admin's dismiss alike, first registered first, only
// whoever fits (guests take places), each promoted person enrolled in the general activities and sent the
// confirmation, `position` on the attendee record; idempotent, and exact under concurrent cancels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

describe.each(STORES)("the event's waiting list on %s", (kind) => {
  let p: TestPlatform;
  let w: World;
  let seq = 0;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  /** A visible event of company A with a capacity and a waiting list (and the other form settings given). */
  async function newEvent(capacity: number, settings: Record<string, number> = {}) {
    seq++;
    const [{ eventID }] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: `Queue ${seq}`, nickname: `queue-${kind}-${seq}` },
    });
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
    for (const [key, value] of Object.entries({ capacity, waitingList: 1, ...settings }))
      await p.ok('form.edit', { token: w.adminA, query: { eventID, key }, body: { value } });
    return eventID;
  }
  /** Registers a new person through the form (login=1): their id, token, approval and e-mail. */
  async function register(eventID: string, name: string) {
    const email = `${name.toLowerCase()}-${kind}-${seq}@queue.test`;
    const [r] = await p.ok('form.respondRegistration', {
      query: { eventID },
      body: { firstName: name, lastName: 'Q', email, feedbackContent: '[]', login: 1 },
    });
    return { personID: r.personID, token: r.tokenID, approved: r.approved, position: r.position, email };
  }
  /** approved and position of each person, as the event's admin reads them (undefined: not an attendee). */
  async function states(eventID: string, ...people: { personID: string }[]) {
    const out: (string | undefined)[] = [];
    for (const { personID } of people) {
      const r = await p.call('event.person.get', { token: w.adminA, query: { eventID, personID } });
      out.push(r.status === 404 ? undefined : `${r.data[0].approved}/${r.data[0].position}`);
    }
    return out;
  }
  const cancel = (eventID: string, token: string) => p.call('event.person.dismiss', { token, query: { eventID } });
  const mailsTo = (email: string) => p.mails().filter((m) => m.includes(email)).length;
  async function untilMailed(email: string, count: number) {
    const end = Date.now() + 10_000;
    while (mailsTo(email) < count && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return mailsTo(email);
  }

  it('a cancel promotes the first waiting: approved, general activities, confirmation; position is the queue place', async () => {
    const eventID = await newEvent(2);
    const [general] = await p.ok('activity.create', { token: w.adminA, query: { eventID }, body: { name: 'Plenary' } }); // prettier-ignore
    await p.ok('activity.edit', { token: w.adminA, query: { activityID: general.activityID, key: 'general' }, body: { value: 1 } }); // prettier-ignore
    const a = await register(eventID, 'Ana');
    const b = await register(eventID, 'Bia');
    const c = await register(eventID, 'Caio');
    const d = await register(eventID, 'Duda');
    expect([a.approved, b.approved, c.approved, d.approved]).toEqual(['1', '1', '0', '0']);
    // The registration's answer and every record say the place in the queue.
    expect([c.position, d.position]).toEqual(['1', '2']);
    expect(await states(eventID, a, b, c, d)).toEqual(['1/0', '1/0', '0/1', '0/2']);
    const [own] = await p.ok('event.person.get', { token: d.token, query: { eventID } });
    expect(own.position).toBe('2');
    const waitingRows = await p.ok('event.person.find', { token: w.adminA, query: { eventID, selection: 'denied' } });
    expect(waitingRows.map((r) => [r.personID, r.position])).toEqual([[c.personID, '1'], [d.personID, '2']]); // prettier-ignore
    // Waiting: no general activity, no confirmation yet.
    const seats = async () =>
      (await p.ok('activity.person.find', { token: w.adminA, query: { activityID: general.activityID, selection: 'all' } })).map((s) => s.personID); // prettier-ignore
    expect((await seats()).sort()).toEqual([a.personID, b.personID].sort());
    await untilMailed(a.email, 1);
    expect(mailsTo(c.email)).toBe(0);

    const first = await cancel(eventID, a.token);
    expect([first.status, first.text]).toEqual([200, '{"count":"0","data":[]}']);
    expect(await states(eventID, a, b, c, d)).toEqual([undefined, '1/0', '1/0', '0/1']);
    expect((await seats()).sort()).toEqual([b.personID, c.personID].sort());
    expect(await untilMailed(c.email, 1)).toBe(1);
    // Webhooks and push channels hear of the promotion itself: a change of its own in the change log,
    // after the cancel's, as an edit of the promoted attendee's record.
    const told = await p.db
      .selectFrom('change')
      .select(['operation', 'objectID', 'ids'])
      .where('eventID', '=', Number(eventID))
      .where('operation', 'in', ['event.person.dismiss', 'event.person.operate'])
      .orderBy('changeID')
      .execute();
    expect(told.map((t) => [t.operation, String(t.objectID), JSON.parse(t.ids)])).toEqual([
      ['event.person.dismiss', a.personID, { eventID: Number(eventID), personID: Number(a.personID) }],
      ['event.person.operate', c.personID, { eventID: Number(eventID), personID: Number(c.personID) }],
    ]);
    // Again (a double click): the same answer, nothing moves.
    const again = await cancel(eventID, a.token);
    expect([again.status, again.text]).toEqual([200, '{"count":"0","data":[]}']);
    expect(await states(eventID, b, c, d)).toEqual(['1/0', '1/0', '0/1']);
    expect(mailsTo(d.email)).toBe(0);
  });

  it("an admin's dismiss moves the queue the same way; a waiting attendee leaving moves nobody", async () => {
    const eventID = await newEvent(1);
    const a = await register(eventID, 'Ana');
    const b = await register(eventID, 'Bia');
    const c = await register(eventID, 'Caio');
    expect(await states(eventID, a, b, c)).toEqual(['1/0', '0/1', '0/2']);
    // Bia leaves the queue: Caio moves up to 1, nobody is approved (no place freed).
    await p.ok('event.person.dismiss', { token: w.adminA, query: { eventID, personID: b.personID } });
    expect(await states(eventID, a, b, c)).toEqual(['1/0', undefined, '0/1']);
    const [gone] = await p.ok('event.person.dismiss', { token: w.adminA, query: { eventID, personID: a.personID } });
    expect(gone).toMatchObject({ personID: a.personID, approved: '1' });
    expect(await states(eventID, a, c)).toEqual([undefined, '1/0']);
    expect(await untilMailed(c.email, 1)).toBe(1);
  });

  it('promotes only whoever fits: guests take places, and a capacity lowered below the approved frees none', async () => {
    const eventID = await newEvent(3, { guestsForMember: 2 });
    const a = await register(eventID, 'Ana');
    await p.ok('event.guest.bind', { token: a.token, query: { eventID }, body: { name: 'Guest of Ana' } });
    const b = await register(eventID, 'Bia');
    const c = await register(eventID, 'Caio');
    const d = await register(eventID, 'Duda');
    const e = await register(eventID, 'Edu');
    expect(await states(eventID, a, b, c, d, e)).toEqual(['1/0', '1/0', '0/1', '0/2', '0/3']);
    // Bia frees one place: Caio only.
    expect((await cancel(eventID, b.token)).status).toBe(200);
    expect(await states(eventID, c, d, e)).toEqual(['1/0', '0/1', '0/2']);
    // Ana and her guest free two: Duda and Edu.
    expect((await cancel(eventID, a.token)).status).toBe(200);
    expect(await states(eventID, c, d, e)).toEqual(['1/0', '1/0', '1/0']);
    const f = await register(eventID, 'Fabi');
    expect(f.approved).toBe('0');
    // Capacity lowered to 1 under three approved: one leaving still leaves the event over its capacity.
    await p.ok('form.edit', { token: w.adminA, query: { eventID, key: 'capacity' }, body: { value: 1 } });
    expect((await cancel(eventID, c.token)).status).toBe(200);
    expect(await states(eventID, f)).toEqual(['0/1']);
    // Without a waiting list (switched off), nobody moves either.
    await p.ok('form.edit', { token: w.adminA, query: { eventID, key: 'capacity' }, body: { value: 5 } });
    await p.ok('form.edit', { token: w.adminA, query: { eventID, key: 'waitingList' }, body: { value: 0 } });
    expect((await cancel(eventID, d.token)).status).toBe(200);
    expect(await states(eventID, f)).toEqual(['0/1']);
  });

  it('concurrent cancels promote exactly as many as leave, first in the queue first, each once', async () => {
    const eventID = await newEvent(3);
    const approved = [];
    for (const name of ['Ana', 'Bia', 'Caio']) approved.push(await register(eventID, name));
    const waiting = [];
    for (const name of ['Duda', 'Edu', 'Fabi', 'Gil']) waiting.push(await register(eventID, name));
    // Two attendees cancel at once, each twice (a double click), while the third is dismissed by an admin.
    const answers = await Promise.all([
      cancel(eventID, approved[0].token),
      cancel(eventID, approved[0].token),
      cancel(eventID, approved[1].token),
      cancel(eventID, approved[1].token),
      p.call('event.person.dismiss', { token: w.adminA, query: { eventID, personID: approved[2].personID } }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await states(eventID, ...waiting)).toEqual(['1/0', '1/0', '1/0', '0/1']);
    const all = await p.ok('event.person.find', { token: w.adminA, query: { eventID, selection: 'approved' } });
    expect(all.map((r) => r.personID).sort()).toEqual(
      waiting
        .slice(0, 3)
        .map((x) => x.personID)
        .sort(),
    );
    for (const x of waiting.slice(0, 3)) expect(await untilMailed(x.email, 1)).toBe(1);
    expect(mailsTo(waiting[3].email)).toBe(0);
  });
});
