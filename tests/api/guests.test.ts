import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';

// Guests (issue 16, docs/api/guests.md): an approved attendee brings up to the event's guestsForMember
// guests ('event.guest.bind', hostID defaulting to the token's person), edits ('event.guest.operate',
// Q key + B value or B content), removes ('event.guest.dismiss') and reads them ('event.guest.find',
// 'event.guest.get'); guests take places of the capacity. Another attendee's guest is what a missing
// guest is. Both stores, both call styles.

const FIELDS = ['eventGuestID', 'eventID', 'personID', 'hostID', 'name', 'email', 'date'];

describe.each(STORES)('guests on %s', (kind) => {
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

    /** A visible event of company A with `settings` (form.edit keys). */
    async function newEvent(settings: Record<string, number> = {}) {
      seq++;
      const [{ eventID }] = await c.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: `Guests ${seq}`, nickname: `guests-${style}-${seq}` },
      });
      await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
      for (const [key, value] of Object.entries({ guestsForMember: 2, ...settings }))
        await c.ok('form.edit', { token: w.adminA, query: { eventID, key }, body: { value } });
      return eventID;
    }
    /** A registered attendee of the event and their event-scope token. */
    async function member(eventID: string, name: string) {
      const r = await c.call('form.respondRegistration', {
        query: { eventID },
        body: { firstName: name, lastName: 'Host', email: `${name.toLowerCase()}-${style}-${seq}@guest.test`, feedbackContent: '[]', login: 1, password: 'long enough pw' }, // prettier-ignore
      });
      expect(r.status, r.text).toBe(200);
      return { personID: r.data[0].personID as string, token: r.data[0].tokenID as string };
    }
    const bind = (eventID: string, token: string, body: Record<string, string>, hostID?: string) =>
      c.call('event.guest.bind', { token, query: { eventID, ...(hostID ? { hostID } : {}) }, body });
    const changes = async (operation: string, eventID: string) =>
      (
        await p.db
          .selectFrom('change')
          .select('objectID')
          .where('operation', '=', operation)
          .where('eventID', '=', Number(eventID))
          .orderBy('changeID')
          .execute()
      ).map((r) => String(r.objectID));

    it("an attendee brings guests up to the event's guestsForMember, as their host", async () => {
      const eventID = await newEvent();
      const ana = await member(eventID, 'Ana');
      const r = await bind(eventID, ana.token, { name: '  Lia   Mota ', email: 'LIA@guest.test' });
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.data[0]).sort()).toEqual([...FIELDS].sort());
      expect(r.data[0]).toMatchObject({ eventID, hostID: ana.personID, name: 'Lia Mota', email: 'lia@guest.test' });
      expect(r.data[0].personID).toBe(r.data[0].eventGuestID);
      const rui = (await bind(eventID, ana.token, { name: 'Rui' })).data[0];
      expect(rui).toMatchObject({ email: '' });
      expect((await bind(eventID, ana.token, { name: 'Third' })).text).toBe('409 an attendee may bring at most 2 guests to this event'); // prettier-ignore
      // Each bind's change names the new guest (webhooks carry its eventGuestID).
      expect(await changes('event.guest.bind', eventID)).toEqual([r.data[0].eventGuestID, rui.eventGuestID]);
    });

    it.each([
      ['an event without guests', { guestsForMember: 0 }, '403 this event does not allow guests'],
      ['a blank name', {}, '400 name cannot be blank'],
      ['a bad e-mail', {}, '400 email must be an e-mail address'],
    ])('%s is refused', async (label, settings, text) => {
      const eventID = await newEvent(settings);
      const ana = await member(eventID, 'Ana');
      const body: Record<string, string> = label === 'a blank name' ? { name: '  ' } : label === 'a bad e-mail' ? { name: 'X', email: 'x' } : { name: 'X' }; // prettier-ignore
      expect((await bind(eventID, ana.token, body)).text).toBe(text);
    });

    it('guestsForMember is a form setting from 0 to 100', async () => {
      const eventID = await newEvent();
      expect((await c.ok('form.get', { query: { eventID } }))[0].guestsForMember).toBe('2');
      await c.fail('form.edit', { token: w.adminA, query: { eventID, key: 'guestsForMember' }, body: { value: 101 } }, 400, /^400 value must be an integer from 0 to 100 \(key guestsForMember\)$/); // prettier-ignore
    });

    it('guests take places of the capacity: the form and a guest too many are refused when full', async () => {
      const eventID = await newEvent({ capacity: 3 });
      const ana = await member(eventID, 'Ana');
      expect((await c.ok('form.get', { query: { eventID } }))[0].remaining).toBe('2');
      await bind(eventID, ana.token, { name: 'G1' });
      expect((await c.ok('form.get', { query: { eventID } }))[0].remaining).toBe('1');
      const [g2] = (await bind(eventID, ana.token, { name: 'G2' })).data;
      expect((await c.ok('form.get', { query: { eventID } }))[0]).toMatchObject({ remaining: '0', reason: 'full' });
      const late = await c.call('form.respondRegistration', {
        query: { eventID },
        body: { firstName: 'Late', lastName: 'X', email: `late-${style}@guest.test`, feedbackContent: '[]' },
      });
      expect(late.text).toBe('409 registration is full');
      // A place freed by a guest leaving takes a registration again; then a guest finds it full.
      await c.ok('event.guest.dismiss', { token: ana.token, query: { eventID, personID: g2.personID as string } });
      const bob = await member(eventID, 'Bob');
      expect((await bind(eventID, bob.token, { name: 'G3' })).text).toBe('409 registration is full: no place left for a guest'); // prettier-ignore
    });

    /** form.respondRegistration with B guests (a JSON list). */
    const registerWith = (eventID: string, who: string, guests: unknown, extra: Record<string, string> = {}) =>
      c.call('form.respondRegistration', {
        query: { eventID },
        body: { firstName: who, lastName: 'X', email: `${who.toLowerCase()}-${style}-${seq}@guest.test`, feedbackContent: '[]', guests: typeof guests === 'string' ? guests : JSON.stringify(guests), ...extra }, // prettier-ignore
      });

    it('the registration brings guests in the same call: bound as the new attendee’s, each a change', async () => {
      const eventID = await newEvent({ capacity: 10 });
      const r = await registerWith(eventID, 'Eva', [{ name: ' Lia  Mota ', email: 'LIA@guest.test' }, { name: 'Rui' }]);
      expect(r.status, r.text).toBe(200);
      const [row] = r.data;
      const guests = row.guests as Record<string, string>[];
      expect(guests.map((g) => [g.name, g.email, g.hostID])).toEqual([['Lia Mota', 'lia@guest.test', row.personID], ['Rui', '', row.personID]]); // prettier-ignore
      expect(guests.every((g) => Object.keys(g).sort().join() === [...FIELDS].sort().join())).toBe(true);
      expect((await c.ok('form.get', { query: { eventID } }))[0].remaining).toBe('7');
      expect(await changes('event.guest.bind', eventID)).toEqual(guests.map((g) => g.eventGuestID));
      expect(await changes('form.respondRegistration', eventID)).toHaveLength(1);
      const host = await c.call('event.guest.find', { token: w.adminA, query: { eventID, hostID: row.personID as string } }); // prettier-ignore
      expect(host.data.map((g) => g.name)).toEqual(['Lia Mota', 'Rui']);
      // Without B guests (or with []) the answer's guests are [].
      expect((await registerWith(eventID, 'Noguests', [])).data[0].guests).toEqual([]);
      // A repeat of the registration binds nothing: knowing an e-mail adds no guest to its registration.
      const again = await registerWith(eventID, 'Eva', [{ name: 'Sneaky' }]);
      expect([again.data[0].duplicate, again.data[0].guests]).toEqual(['1', []]);
      expect((await c.call('event.guest.find', { token: w.adminA, query: { eventID, hostID: row.personID as string } })).data).toHaveLength(2); // prettier-ignore
    });

    it('guests with the registration follow the guest rules, all checked before anything is written', async () => {
      const eventID = await newEvent({ capacity: 4, waitingList: 1 });
      const refused = async (who: string, guests: unknown, text: string | RegExp) => {
        const r = await registerWith(eventID, who, guests);
        if (typeof text === 'string') expect(r.text).toBe(text);
        else expect(r.text).toMatch(text);
        const [form] = await c.ok('form.get', { query: { eventID } });
        return form.remaining;
      };
      expect(await refused('A', [{ name: '1' }, { name: '2' }, { name: '3' }], '409 an attendee may bring at most 2 guests to this event')).toBe('4'); // prettier-ignore
      expect(await refused('B', [{ name: ' ' }], '400 guests 1 name cannot be blank')).toBe('4');
      expect(await refused('C', [{ name: 'x', email: 'nope' }], '400 guests 1 email must be an e-mail address')).toBe('4'); // prettier-ignore
      expect(await refused('D', { name: 'x' }, '400 guests must be a JSON list of {"name","email"}')).toBe('4');
      expect(await refused('E', [{ name: 'x', hostID: '1' }], '400 guests 1 has an unknown key hostID')).toBe('4');
      expect(await refused('F', 'not json', /^400 guests must be a JSON list/)).toBe('4');
      // Three places: the registrant and two guests take them together; then one place, two guests: refused whole.
      expect((await registerWith(eventID, 'G', [{ name: 'g1' }])).status).toBe(200);
      expect(await refused('H', [{ name: 'h1' }, { name: 'h2' }], '409 registration is full: no place left for 2 guests')).toBe('2'); // prettier-ignore
      expect((await registerWith(eventID, 'I', [{ name: 'i1' }])).data[0].approved).toBe('1');
      // Full: alone, the waiting list takes them; with a guest, nothing is written (a guest needs an approved host).
      expect(await refused('J', [{ name: 'j1' }], '409 registration is full: no place left for a guest')).toBe('0');
      const alone = await registerWith(eventID, 'J', []);
      expect([alone.data[0].approved, alone.data[0].guests]).toEqual(['0', []]);

      const none = await newEvent({ guestsForMember: 0 });
      expect((await registerWith(none, 'K', [{ name: 'k' }])).text).toBe('403 this event does not allow guests');
      const approval = await newEvent({ approvalRequired: 1 });
      expect((await registerWith(approval, 'L', [{ name: 'l' }])).text).toBe('409 an application cannot bring guests: they are added once it is approved'); // prettier-ignore
      expect((await registerWith(approval, 'L', [])).data[0].approved).toBe('-1');
    });

    it('an admin brings a guest for any attendee (hostID); an attendee only for themself', async () => {
      const eventID = await newEvent();
      const ana = await member(eventID, 'Ana');
      const bob = await member(eventID, 'Bob');
      const r = await bind(eventID, w.adminA, { name: 'For Ana' }, ana.personID);
      expect(r.data[0]).toMatchObject({ hostID: ana.personID });
      expect((await bind(eventID, bob.token, { name: 'Sneaky' }, ana.personID)).text).toBe('404 person not found');
      expect((await bind(eventID, bob.token, { name: 'Own' }, bob.personID)).data[0].hostID).toBe(bob.personID);
      // An admin who is no attendee brings nobody of their own; a host must be an approved attendee.
      expect((await bind(eventID, w.adminA, { name: 'Mine' })).text).toBe('404 person not found');
      expect((await bind(eventID, w.adminA, { name: 'Nobody' }, '987654321')).text).toBe('404 person not found');
      await c.ok('event.person.operate', { token: w.adminA, query: { eventID, personID: bob.personID, key: 'level' }, body: { value: 1 } }); // prettier-ignore
      await p.db.updateTable('eventPerson').set({ approved: 0 }).where('eventID', '=', Number(eventID)).where('personID', '=', Number(bob.personID)).execute(); // prettier-ignore
      expect((await bind(eventID, w.adminA, { name: 'Waiting' }, bob.personID)).text).toBe('409 only approved attendees may bring guests'); // prettier-ignore
    });

    it('operate edits a guest: Q key + B value, or B content', async () => {
      const eventID = await newEvent();
      const ana = await member(eventID, 'Ana');
      const personID = (await bind(eventID, ana.token, { name: 'Old', email: 'old@guest.test' })).data[0].personID as string; // prettier-ignore
      const op = (query: Record<string, string>, body: Record<string, string>, token = ana.token) =>
        c.call('event.guest.operate', { token, query: { eventID, personID, ...query }, body });
      expect((await op({ key: 'name' }, { value: 'New Name' })).data[0]).toMatchObject({ name: 'New Name', email: 'old@guest.test' }); // prettier-ignore
      expect((await op({ key: 'email' }, { value: '' })).data[0].email).toBe('');
      expect((await op({}, { content: '{"name":"Both","email":"both@guest.test"}' })).data[0]).toMatchObject({ name: 'Both', email: 'both@guest.test' }); // prettier-ignore
      expect((await op({ hostID: ana.personID }, { content: '{"name":"Via host"}' })).data[0].name).toBe('Via host');
      expect((await c.ok('event.guest.get', { token: ana.token, query: { eventID, personID } }))[0]).toMatchObject({ name: 'Via host', email: 'both@guest.test' }); // prettier-ignore
      expect((await op({ key: 'hostID' }, { value: '1' })).text).toBe('400 key hostID cannot be edited here; keys: name, email'); // prettier-ignore
      expect((await op({ key: 'name' }, { value: '' })).text).toBe('400 value cannot be empty (key name)');
      expect((await op({ key: 'name' }, {})).text).toBe('400 value cannot be empty (key name)');
      expect((await op({}, { content: '[]' })).text).toBe('400 content must be a JSON object of key values');
      expect((await op({}, { content: '{}' })).text).toBe('400 content must name at least one key');
      expect((await op({}, {})).text).toMatch(/^400 one of these is required/);
      expect((await op({}, { content: '{"name":"By admin"}' }, w.adminA)).data[0].name).toBe('By admin');
      expect(await changes('event.guest.operate', eventID)).toContain(personID);
    });

    it('find: an attendee sees their own guests, admins and staff all (or one host), with query and pages', async () => {
      const eventID = await newEvent();
      const ana = await member(eventID, 'Ana');
      const bob = await member(eventID, 'Bob');
      await bind(eventID, ana.token, { name: 'Alpha One', email: 'a1@guest.test' });
      await bind(eventID, ana.token, { name: 'Alpha Two' });
      await bind(eventID, bob.token, { name: 'Beta One' });
      const names = async (token: string, query: Record<string, string> = {}) =>
        (await c.ok('event.guest.find', { token, query: { eventID, ...query } })).map((g) => g.name);
      expect(await names(ana.token)).toEqual(['Alpha One', 'Alpha Two']);
      expect(await names(bob.token)).toEqual(['Beta One']);
      // hostID is for admins and staff: an attendee still sees only their own.
      expect(await names(bob.token, { hostID: ana.personID })).toEqual(['Beta One']);
      expect(await names(w.adminA)).toEqual(['Alpha One', 'Alpha Two', 'Beta One']);
      expect(await names(w.adminA, { hostID: bob.personID })).toEqual(['Beta One']);
      expect(await names(w.adminA, { query: 'ONE' })).toEqual(['Alpha One', 'Beta One']);
      expect(await names(w.adminA, { query: 'a1@' })).toEqual(['Alpha One']);
      const page = await c.call('event.guest.find', { token: w.adminA, query: { eventID, limit: '1', offset: '1', paginated: '1' } }); // prettier-ignore
      expect(page.total).toBe('3');
      expect(page.data.map((g) => g.name)).toEqual(['Alpha Two']);
    });

    it("another attendee's guest is what a missing guest is; another company's admin gets a missing event", async () => {
      const eventID = await newEvent();
      const ana = await member(eventID, 'Ana');
      const bob = await member(eventID, 'Bob');
      const personID = (await bind(eventID, ana.token, { name: 'Ana guest' })).data[0].personID as string;
      const cases: [string, Record<string, string>, Record<string, string> | undefined][] = [
        ['event.guest.get', {}, undefined],
        ['event.guest.operate', { key: 'name' }, { value: 'Hacked' }],
        ['event.guest.dismiss', {}, undefined],
      ];
      for (const [name, query, body] of cases) {
        const as = (token: string, id: string, more: Record<string, string> = {}) =>
          c.call(name, { token, query: { eventID, personID: id, ...query, ...more }, body });
        const missing = await as(bob.token, '987654321');
        expect(missing.text).toBe('404 guest not found');
        expect((await as(bob.token, personID)).text).toBe(missing.text);
        // Naming the right host does not help; naming a wrong host hides it from an admin too.
        expect((await as(bob.token, personID, { hostID: ana.personID })).text).toBe(missing.text);
        expect((await as(w.adminA, personID, { hostID: bob.personID })).text).toBe(missing.text);
        expect((await as(w.adminB, personID)).text).toBe('404 event not found');
        expect((await c.call(name, { token: w.adminB, query: { eventID: '987654321', personID, ...query }, body })).text).toBe('404 event not found'); // prettier-ignore
      }
      expect((await c.ok('event.guest.get', { token: ana.token, query: { eventID, personID } }))[0].name).toBe('Ana guest'); // prettier-ignore
      expect((await c.ok('event.guest.get', { token: w.adminA, query: { eventID, personID } }))[0].name).toBe('Ana guest'); // prettier-ignore
      expect((await c.call('event.guest.find', { token: w.adminB, query: { eventID } })).text).toBe('404 event not found'); // prettier-ignore
      expect((await c.call('event.guest.bind', { token: w.adminB, query: { eventID }, body: { name: 'X' } })).text).toBe('404 event not found'); // prettier-ignore
    });

    it('dismiss removes a guest; an attendee leaving the event takes their guests along', async () => {
      const eventID = await newEvent();
      const ana = await member(eventID, 'Ana');
      const bob = await member(eventID, 'Bob');
      const g1 = (await bind(eventID, ana.token, { name: 'G1' })).data[0].personID as string;
      await bind(eventID, bob.token, { name: 'Bob guest' });
      const [gone] = await c.ok('event.guest.dismiss', { token: ana.token, query: { eventID, personID: g1 } });
      expect(gone).toMatchObject({ personID: g1, name: 'G1' });
      await c.fail('event.guest.get', { token: ana.token, query: { eventID, personID: g1 } }, 404, /^404 guest not found$/); // prettier-ignore
      expect(await changes('event.guest.dismiss', eventID)).toEqual([g1]);
      await c.ok('event.person.dismiss', { token: w.adminA, query: { eventID, personID: bob.personID } });
      expect((await c.ok('event.guest.find', { token: w.adminA, query: { eventID } })).length).toBe(0);
    });
  });
});
