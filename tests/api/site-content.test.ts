// The public website's content over real HTTP, in both call styles and on both stores: speakers,
// sponsors, tags (Podium extensions, docs/api/site.md) and hotsite sections (spec §4.9 + extensions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf, type Client } from '../helpers/operations.ts';
import { HOTSITE_SECTIONS } from '../../src/shared/hotsite.ts';

const long = (n: number) => 'x'.repeat(n);
type Body = Record<string, string | number>;

const SPEAKER_FIELDS = [
  'speakerID', 'eventID', 'personID', 'name', 'headline', 'description', 'category', 'image', 'email', 'website',
  'socialA', 'socialB', 'socialC', 'position',
]; // prettier-ignore
const SPONSOR_FIELDS = [
  'sponsorID', 'eventID', 'companyName', 'name', 'telephone', 'email', 'website', 'bio', 'logo', 'category', 'tier',
  'tierRank', 'position',
]; // prettier-ignore
const TAG_FIELDS = ['tagID', 'eventID', 'companyID', 'name', 'color', 'kind'];
const SECTION_FIELDS = ['sectionID', 'eventID', 'section', 'position', 'name', 'text'];
const sorted = (xs: string[]) => [...xs].sort();
const publicOf = (fields: string[], hidden: string[]) => sorted(fields.filter((f) => !hidden.includes(f)));

/** [key, valid value, value read back, invalid value, message of the invalid value]. */
type Edit = [string, string, string, string, RegExp];
const SPEAKER_EDITS: Edit[] = [
  ['name', '  Ada Lovelace  ', 'Ada Lovelace', '   ', /value cannot be blank \(key name\)/],
  ['headline', 'Analyst, Engine Co', 'Analyst, Engine Co', long(301), /at most 300/],
  ['description', '<p>Hi <b>there</b><script>x()</script></p>', '<p>Hi <b>there</b></p>', long(50001), /at most 50000/],
  ['category', 'Keynote', 'Keynote', long(101), /at most 100/],
  ['image', 'https://cdn.example.com/ada.png', 'https://cdn.example.com/ada.png', 'javascript:alert(1)', /http or https URL \(key image\)/],
  ['email', 'ada@example.com', 'ada@example.com', 'not-an-email', /e-mail address \(key email\)/],
  ['website', 'https://ada.example.com/', 'https://ada.example.com/', 'ada.example.com', /http or https URL/],
  ['socialA', 'https://a.example.com/ada', 'https://a.example.com/ada', '@ada', /http or https URL \(key socialA\)/],
  ['socialB', 'https://b.example.com/ada', 'https://b.example.com/ada', 'ada', /http or https URL \(key socialB\)/],
  ['socialC', 'https://c.example.com/ada', 'https://c.example.com/ada', 'data:x', /http or https URL \(key socialC\)/],
  ['position', '7', '7', '-1', /integer from 0 to 1000000 \(key position\)/],
]; // prettier-ignore
const SPONSOR_EDITS: Edit[] = [
  ['name', 'Acme', 'Acme', ' ', /value cannot be blank \(key name\)/],
  ['companyName', 'Acme Corporation Ltd', 'Acme Corporation Ltd', long(201), /at most 200/],
  ['telephone', '+351 210 000 000', '+351 210 000 000', 'call me', /telephone number such as .* \(key telephone\)/],
  ['email', 'partners@acme.example', 'partners@acme.example', 'acme', /e-mail address/],
  ['website', 'https://acme.example/', 'https://acme.example/', 'ftp://acme.example/', /http or https URL/],
  ['bio', '<p>We make <a href="https://acme.example" onclick="x()">things</a></p>', '<p>We make <a href="https://acme.example">things</a></p>', long(50001), /at most 50000/],
  ['logo', 'https://cdn.example.com/acme.svg', 'https://cdn.example.com/acme.svg', '/acme.svg', /http or https URL \(key logo\)/],
  ['category', 'Media partner', 'Media partner', long(101), /at most 100/],
  ['tier', 'Gold', 'Gold', long(61), /at most 60/],
  ['tierRank', '2', '2', '1001', /integer from 0 to 1000 \(key tierRank\)/],
  ['position', '3', '3', '1.5', /integer from 0 to 1000000/],
]; // prettier-ignore

describe.each(STORES)('site content on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    /** Events of company A: visible + private (code 1234), hidden. eventA is visible + public. */
    let privateID: string;
    let hiddenID: string;
    let grant: string;
    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
      privateID = await mkEvent('Closed', 'closed', { visible: 1, accessCode: 1234, public: 0 });
      hiddenID = await mkEvent('Hidden', 'hidden', {});
      grant = (await c.ok('event.checkAccessCode', { query: { eventID: privateID }, body: { accessCode: '1234' } }))[0]
        .grant;
      expect(grant).not.toBe('');
    });
    afterAll(() => p?.close());

    async function mkEvent(name: string, nickname: string, edits: Body): Promise<string> {
      const { eventID } = (
        await c.ok('company.event.bind', {
          token: w.adminA,
          query: { companyID: w.companyA.companyID },
          body: { name, nickname: `${nickname}-${style}` },
        })
      )[0];
      for (const [key, value] of Object.entries(edits))
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key }, body: { value } });
      return eventID;
    }
    const eventA = () => w.eventA.eventID;
    const create = async (op: string, query: Body, body: Body, token = w.adminA) =>
      (await c.ok(op, { token, query, body }))[0];
    const read = (op: string, query: Body, token?: string) => c.ok(op, { token, query });

    /**
     * The public-read rules every find/get shares, for an object in each kind of event: members read
     * anything; anyone else a visible public event, a private one with a grant (403 without), never a
     * hidden one (404).
     */
    async function publicReads(op: string, queryOf: (eventID: string) => Body, notFoundWord: RegExp) {
      const inPublic = queryOf(eventA());
      const inPrivate = queryOf(privateID);
      const inHidden = queryOf(hiddenID);
      for (const token of [undefined, w.adminB, w.attendee, w.staff, w.adminA]) await read(op, inPublic, token);
      await c.fail(op, { query: inPrivate }, 403, /private: send the grant/);
      await c.fail(op, { query: { ...inPrivate, grant: `${grant}x` } }, 403);
      await c.fail(op, { token: w.adminB, query: inPrivate }, 403);
      await read(op, { ...inPrivate, grant });
      await read(op, inPrivate, w.adminA);
      await c.fail(op, { query: { ...inPrivate, grant: 'a'.repeat(201) } }, 400, /^400 grant must be at most 200/);
      await c.fail(op, { query: inHidden }, 404, notFoundWord);
      await c.fail(op, { query: { ...inHidden, grant } }, 404, notFoundWord);
      await c.fail(op, { token: w.adminB, query: inHidden }, 404, notFoundWord);
      await read(op, inHidden, w.adminA);
      await read(op, inHidden, w.operator);
    }

    describe('speakers', () => {
      const full = {
        name: 'Grace Hopper',
        headline: 'Rear Admiral',
        description: '<p>Compilers <img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>',
        category: 'Keynote',
        image: 'https://cdn.example.com/grace.png',
        email: 'grace@example.com',
        website: 'https://grace.example.com/',
        socialA: 'https://a.example.com/grace',
        socialB: 'https://b.example.com/grace',
        socialC: 'https://c.example.com/grace',
        position: 3,
      };

      it('speaker.create stores every field (description sanitized) and speaker.get reads it back', async () => {
        const row = await create('speaker.create', { eventID: eventA() }, full);
        expect(sorted(Object.keys(row))).toEqual(sorted(SPEAKER_FIELDS));
        expect(row).toMatchObject({
          ...full,
          position: '3',
          description: '<p>Compilers <a>x</a></p>',
          eventID: eventA(),
          personID: '',
        });
        expect((await read('speaker.get', { speakerID: row.speakerID }, w.adminA))[0]).toEqual(row);
        const minimal = await create('speaker.create', { eventID: eventA() }, { name: '  Linus  ' });
        expect(minimal).toMatchObject({ name: 'Linus', headline: '', email: '', position: '0', personID: '' });
      });

      it('speaker.create refuses invalid fields naming them, and checks personID', async () => {
        const q = { eventID: eventA() };
        const bad = (body: Body, message: RegExp, status = 400) =>
          c.fail('speaker.create', { token: w.adminA, query: q, body }, status, message);
        await bad({}, /^400 name cannot be empty/);
        await bad({ name: '   ' }, /^400 name cannot be blank/);
        await bad({ name: long(201) }, /^400 name must be at most 200/);
        await bad({ name: 'X', image: 'javascript:alert(1)' }, /^400 image must be an http or https URL/);
        await bad({ name: 'X', email: 'nope' }, /^400 email must be an e-mail address/);
        await bad({ name: 'X', website: 'example.com' }, /^400 website must be an http/);
        await bad({ name: 'X', socialB: 'x' }, /^400 socialB must be an http/);
        await bad({ name: 'X', position: '-1' }, /^400 position must be an integer from 0 to 1000000/);
        await bad({ name: 'X', personID: '0' }, /^400 personID must be a positive integer/);
        await c.fail('speaker.create', { token: w.adminA, query: {}, body: { name: 'X' } }, 400, /^400 eventID/);
        // personID must be an attendee of this event, linked to one speaker only.
        const people = await c.ok('company.person.find', {
          token: w.adminA,
          query: { companyID: w.companyA.companyID, selection: 'all' },
        });
        const outsider = people.find((r) => r.email === 'admin-a@podium.test')!.personID;
        await bad({ name: 'X', personID: outsider }, /^404 person not found/, 404);
        await bad({ name: 'X', personID: 999999 }, /^404 person not found/, 404);
        const linked = await create('speaker.create', q, { name: 'Attendee Speaker', personID: w.attendeeID });
        expect(linked.personID).toBe(String(w.attendeeID));
        await bad({ name: 'Again', personID: w.attendeeID }, /^409 the person is already linked/, 409);
        await c.ok('speaker.edit', {
          token: w.adminA,
          query: { speakerID: linked.speakerID, key: 'personID' },
          body: { value: '' },
        });
        await create('speaker.create', q, { name: 'Again', personID: w.attendeeID });
      });

      it('speaker.create: 401 without token, 403 for members below admin, 404 for outsiders', async () => {
        const o = (token?: string, eventID = eventA()) => ({ token, query: { eventID }, body: { name: 'X' } });
        await c.fail('speaker.create', o(), 401);
        await c.fail('speaker.create', o(w.attendee), 403);
        await c.fail('speaker.create', o(w.staff), 403);
        await c.fail('speaker.create', o(w.eventAdminEventScope), 403, /event-scope token/);
        await c.fail('speaker.create', o(w.externalA), 403);
        await c.fail('speaker.create', o(w.adminB), 404, /^404 event not found/);
        await c.fail('speaker.create', o(w.adminA, '999999'), 404);
        await create('speaker.create', { eventID: eventA() }, { name: 'By event admin' }, w.eventAdminSystem);
      });

      it('speaker.edit changes every key, clears optional ones, refuses bad values and unknown keys', async () => {
        const { speakerID } = await create('speaker.create', { eventID: eventA() }, full);
        const edit = (key: string, value: string, token = w.adminA) =>
          c.call('speaker.edit', { token, query: { speakerID, key }, body: { value } });
        for (const [key, value, back, invalid, message] of SPEAKER_EDITS) {
          const r = await edit(key, value);
          expect(r.data[0][key], key).toBe(back);
          expect((await read('speaker.get', { speakerID }, w.adminA))[0][key]).toBe(back);
          const before = (await read('speaker.get', { speakerID }, w.adminA))[0];
          await c.fail(
            'speaker.edit',
            { token: w.adminA, query: { speakerID, key }, body: { value: invalid } },
            400,
            message,
          );
          expect((await read('speaker.get', { speakerID }, w.adminA))[0]).toEqual(before);
        }
        expect((await edit('personID', String(w.attendeeID))).status).toBe(409); // linked by the previous test
        for (const key of SPEAKER_EDITS.map((e) => e[0]).filter((k) => k !== 'name'))
          expect((await edit(key, '')).data[0][key], key).toBe(key === 'position' ? '0' : '');
        await c.fail(
          'speaker.edit',
          { token: w.adminA, query: { speakerID, key: 'name' }, body: { value: '' } },
          400,
          /^400 value cannot be empty/,
        );
        for (const key of ['eventID', 'speakerID', '__proto__', 'nope'])
          await c.fail(
            'speaker.edit',
            { token: w.adminA, query: { speakerID, key }, body: { value: '1' } },
            400,
            /cannot be edited here/,
          );
        await c.fail('speaker.edit', { token: w.adminA, query: { speakerID }, body: { value: 'x' } }, 400, /^400 key/);
        await c.fail('speaker.edit', { query: { speakerID, key: 'name' }, body: { value: 'x' } }, 401);
        await c.fail(
          'speaker.edit',
          { token: w.attendee, query: { speakerID, key: 'name' }, body: { value: 'x' } },
          403,
        );
        await c.fail('speaker.edit', { token: w.staff, query: { speakerID, key: 'name' }, body: { value: 'x' } }, 403);
        await c.fail('speaker.edit', { token: w.adminB, query: { speakerID, key: 'name' }, body: { value: 'x' } }, 404);
        await c.fail(
          'speaker.edit',
          { token: w.adminA, query: { speakerID: 999999, key: 'name' }, body: { value: 'x' } },
          404,
          /^404 speaker not found/,
        );
      });

      it('speaker.remove removes it (and its activity links); GET only', async () => {
        const s = await create('speaker.create', { eventID: eventA() }, { name: 'Gone Soon' });
        const speakerID = s.speakerID;
        const { activityID } = await p.db
          .insertInto('activity')
          .values({ eventID: Number(eventA()), name: 'Talk' })
          .returning('activityID')
          .executeTakeFirstOrThrow();
        await p.db
          .insertInto('activitySpeaker')
          .values({ activityID, speakerID: Number(speakerID) })
          .execute();
        await c.fail('speaker.remove', { query: { speakerID } }, 401);
        await c.fail('speaker.remove', { token: w.attendee, query: { speakerID } }, 403);
        await c.fail('speaker.remove', { token: w.adminB, query: { speakerID } }, 404);
        await c.fail('speaker.remove', { token: w.adminA, query: { speakerID }, body: {} }, 405);
        const removed = await read('speaker.remove', { speakerID }, w.adminA);
        expect(removed).toEqual([s]);
        await c.fail('speaker.get', { token: w.adminA, query: { speakerID } }, 404, /^404 speaker not found/);
        await c.fail('speaker.remove', { token: w.adminA, query: { speakerID } }, 404, /^404 speaker not found/);
        expect(
          await p.db.selectFrom('activitySpeaker').selectAll().where('activityID', '=', activityID).execute(),
        ).toEqual([]);
      });

      it('speaker.get: public shape without email for everyone but the event admins', async () => {
        const s = await create('speaker.create', { eventID: eventA() }, full);
        const q = { speakerID: s.speakerID };
        for (const token of [undefined, w.attendee, w.staff, w.eventAdminEventScope, w.adminB, w.externalA]) {
          const [row] = await read('speaker.get', q, token);
          expect(sorted(Object.keys(row))).toEqual(publicOf(SPEAKER_FIELDS, ['email']));
          expect(row.name).toBe(full.name);
        }
        for (const token of [w.adminA, w.eventAdminSystem, w.operator])
          expect((await read('speaker.get', q, token))[0].email).toBe(full.email);
        await c.fail('speaker.get', { query: {} }, 400, /^400 speakerID cannot be empty/);
        await c.fail('speaker.get', { query: { speakerID: 'x' } }, 400, /^400 speakerID must be a positive integer/);
        await c.fail('speaker.get', { query: { speakerID: 999999 } }, 404, /^404 speaker not found/);
      });

      it('speaker.get and speaker.find follow the public-read rules (grant for private, 404 hidden)', async () => {
        const ids: Record<string, string> = {};
        for (const [name, eventID] of [
          ['pub', eventA()],
          ['priv', privateID],
          ['hid', hiddenID],
        ])
          ids[name] = (await create('speaker.create', { eventID }, { name: `Rules ${name}` })).speakerID;
        await publicReads('speaker.find', (eventID) => ({ eventID }), /^404 event not found/);
        await publicReads(
          'speaker.get',
          (eventID) => ({ speakerID: eventID === eventA() ? ids.pub : eventID === privateID ? ids.priv : ids.hid }),
          /^404 speaker not found/,
        );
        await c.fail('speaker.find', { query: { eventID: 999999 } }, 404, /^404 event not found/);
        await c.fail('speaker.find', { query: {} }, 400, /^400 eventID cannot be empty/);
      });

      it("members read their own event's speakers whatever its state; the public does not", async () => {
        const s = await create('speaker.create', { eventID: eventA() }, { name: 'Member view' });
        await c.ok('event.edit', { token: w.adminA, query: { eventID: eventA(), key: 'visible' }, body: { value: 0 } });
        try {
          for (const token of [w.attendee, w.staff, w.eventAdminEventScope, w.externalA]) {
            expect(idsOf(await read('speaker.find', { eventID: eventA() }, token), 'speakerID')).toContain(s.speakerID);
            expect((await read('speaker.get', { speakerID: s.speakerID }, token))[0].email).toBeUndefined();
          }
          await c.fail('speaker.find', { query: { eventID: eventA() } }, 404);
          await c.fail('speaker.get', { token: w.adminB, query: { speakerID: s.speakerID } }, 404);
        } finally {
          await c.ok('event.edit', {
            token: w.adminA,
            query: { eventID: eventA(), key: 'visible' },
            body: { value: 1 },
          });
        }
      });

      it('speaker.find orders by position then name, filters by text and category, pages', async () => {
        const eventID = await mkEvent('Speakers', 'speakers', { visible: 1 });
        const mk = (name: string, position: number, more: Body = {}) =>
          create('speaker.create', { eventID }, { name, position, ...more });
        const d = await mk('delta', 1, { headline: 'Loves 100% cotton', category: 'Panel', email: 'd@example.com' });
        const b = await mk('Bravo', 0, { category: 'Keynote' });
        const a = await mk('alpha', 0);
        const c2 = await mk('Charlie', 1, { headline: 'under_score' });
        const all = await read('speaker.find', { eventID });
        expect(idsOf(all, 'speakerID')).toEqual([a, b, c2, d].map((s) => s.speakerID));
        for (const row of all) expect(sorted(Object.keys(row))).toEqual(publicOf(SPEAKER_FIELDS, ['email']));
        expect((await read('speaker.find', { eventID }, w.adminA)).find((r) => r.name === 'delta')!.email).toBe(
          'd@example.com',
        );
        const find = async (query: Body) => idsOf(await read('speaker.find', { eventID, ...query }), 'name');
        expect(await find({ query: 'LOVES' })).toEqual(['delta']);
        expect(await find({ query: 'AR' })).toEqual(['Charlie']);
        expect(await find({ query: '%' })).toEqual(['delta']); // wildcards match themselves
        expect(await find({ query: '_' })).toEqual(['Charlie']);
        expect(await find({ category: 'Keynote' })).toEqual(['Bravo']);
        expect(await find({ category: 'keynote' })).toEqual([]);
        expect(await find({ limit: 2, offset: 1 })).toEqual(['Bravo', 'Charlie']);
        const page = await c.call('speaker.find', { query: { eventID, limit: 1, paginated: 1, query: 'a' } });
        expect(page.total).toBe('4');
        expect(page.count).toBe(1);
        await c.fail('speaker.find', { query: { eventID, limit: 101 } }, 400, /^400 limit must be at most 100/);
        await c.fail('speaker.find', { query: { eventID, query: long(201) } }, 400, /^400 query must be at most 200/);
      });
    });

    describe('sponsors', () => {
      const full = {
        name: 'Initech',
        companyName: 'Initech Holdings',
        telephone: '+1 (555) 010-0000',
        email: 'sponsor@initech.example',
        website: 'https://initech.example/',
        bio: '<p onmouseover="x()">TPS <iframe src="https://evil.example"></iframe>reports</p>',
        logo: 'https://cdn.example.com/initech.png',
        category: 'Software',
        tier: 'Gold',
        tierRank: 1,
        position: 2,
      };

      it('sponsor.create stores every field (bio sanitized) and sponsor.get reads it back', async () => {
        const row = await create('sponsor.create', { eventID: eventA() }, full);
        expect(sorted(Object.keys(row))).toEqual(sorted(SPONSOR_FIELDS));
        expect(row).toMatchObject({ ...full, bio: '<p>TPS reports</p>', tierRank: '1', position: '2' });
        expect((await read('sponsor.get', { sponsorID: row.sponsorID }, w.adminA))[0]).toEqual(row);
        const minimal = await create('sponsor.create', { eventID: eventA() }, { name: 'Small' });
        expect(minimal).toMatchObject({ name: 'Small', companyName: '', tier: '', tierRank: '0', position: '0' });
      });

      it('sponsor.create refuses invalid fields naming them; 401/403/404', async () => {
        const bad = (body: Body, message: RegExp) =>
          c.fail('sponsor.create', { token: w.adminA, query: { eventID: eventA() }, body }, 400, message);
        await bad({}, /^400 name cannot be empty/);
        await bad({ name: ' ' }, /^400 name cannot be blank/);
        await bad({ name: 'X', telephone: 'ring ring' }, /^400 telephone must be a telephone number/);
        await bad({ name: 'X', email: 'x@' }, /^400 email must be an e-mail address/);
        await bad({ name: 'X', logo: 'data:image/png;base64,AAAA' }, /^400 logo must be an http or https URL/);
        await bad({ name: 'X', tierRank: '-1' }, /^400 tierRank must be an integer from 0 to 1000/);
        await bad({ name: 'X', position: 'first' }, /^400 position must be an integer/);
        await bad({ name: 'X', tier: long(61) }, /^400 tier must be at most 60/);
        const o = (token?: string) => ({ token, query: { eventID: eventA() }, body: { name: 'X' } });
        await c.fail('sponsor.create', o(), 401);
        await c.fail('sponsor.create', o(w.attendee), 403);
        await c.fail('sponsor.create', o(w.staff), 403);
        await c.fail('sponsor.create', o(w.adminB), 404);
      });

      it('sponsor.edit changes every key, clears optional ones, refuses bad values and unknown keys', async () => {
        const { sponsorID } = await create('sponsor.create', { eventID: eventA() }, full);
        const edit = (key: string, value: string) =>
          c.call('sponsor.edit', { token: w.adminA, query: { sponsorID, key }, body: { value } });
        for (const [key, value, back, invalid, message] of SPONSOR_EDITS) {
          expect((await edit(key, value)).data[0][key], key).toBe(back);
          expect((await read('sponsor.get', { sponsorID }, w.adminA))[0][key]).toBe(back);
          await c.fail(
            'sponsor.edit',
            { token: w.adminA, query: { sponsorID, key }, body: { value: invalid } },
            400,
            message,
          );
          expect((await read('sponsor.get', { sponsorID }, w.adminA))[0][key]).toBe(back);
        }
        for (const key of SPONSOR_EDITS.map((e) => e[0]).filter((k) => k !== 'name'))
          expect((await edit(key, '')).data[0][key], key).toBe(['tierRank', 'position'].includes(key) ? '0' : '');
        for (const key of ['eventID', 'sponsorID', 'constructor'])
          await c.fail(
            'sponsor.edit',
            { token: w.adminA, query: { sponsorID, key }, body: { value: '1' } },
            400,
            /cannot be edited here/,
          );
        const o = (token?: string, id: string | number = sponsorID) => ({
          token,
          query: { sponsorID: id, key: 'name' },
          body: { value: 'x' },
        });
        await c.fail('sponsor.edit', o(), 401);
        await c.fail('sponsor.edit', o(w.attendee), 403);
        await c.fail('sponsor.edit', o(w.adminB), 404);
        await c.fail('sponsor.edit', o(w.adminA, 999999), 404, /^404 sponsor not found/);
      });

      it('sponsor.remove removes it; 401/403/404', async () => {
        const s = await create('sponsor.create', { eventID: eventA() }, { name: 'Gone' });
        const sponsorID = s.sponsorID;
        await c.fail('sponsor.remove', { query: { sponsorID } }, 401);
        await c.fail('sponsor.remove', { token: w.staff, query: { sponsorID } }, 403);
        await c.fail('sponsor.remove', { token: w.adminB, query: { sponsorID } }, 404);
        expect(await read('sponsor.remove', { sponsorID }, w.adminA)).toEqual([s]);
        await c.fail('sponsor.get', { query: { sponsorID } }, 404, /^404 sponsor not found/);
        await c.fail('sponsor.remove', { token: w.adminA, query: { sponsorID } }, 404);
      });

      it('sponsor.get/find: the public shape hides telephone and email; public-read rules', async () => {
        const s = await create('sponsor.create', { eventID: eventA() }, full);
        for (const token of [undefined, w.attendee, w.staff, w.adminB]) {
          const [row] = await read('sponsor.get', { sponsorID: s.sponsorID }, token);
          expect(sorted(Object.keys(row))).toEqual(publicOf(SPONSOR_FIELDS, ['telephone', 'email']));
        }
        const [admin] = await read('sponsor.get', { sponsorID: s.sponsorID }, w.eventAdminSystem);
        expect(admin).toMatchObject({ telephone: full.telephone, email: full.email });
        const ids: Record<string, string> = { [eventA()]: s.sponsorID };
        for (const eventID of [privateID, hiddenID])
          ids[eventID] = (await create('sponsor.create', { eventID }, { name: 'Rules' })).sponsorID;
        await publicReads('sponsor.find', (eventID) => ({ eventID }), /^404 event not found/);
        await publicReads('sponsor.get', (eventID) => ({ sponsorID: ids[eventID] }), /^404 sponsor not found/);
      });

      it('sponsor.find orders by tier (1 first, no tier last), position, name; filters', async () => {
        const eventID = await mkEvent('Sponsors', 'sponsors', { visible: 1 });
        const mk = (name: string, tierRank: number, position: number, more: Body = {}) =>
          create('sponsor.create', { eventID }, { name, tierRank, position, ...more });
        await mk('NoTier', 0, 0);
        await mk('Silver b', 2, 1, { tier: 'Silver' });
        await mk('silver a', 2, 1, { tier: 'Silver', companyName: 'Parent Group' });
        await mk('Gold late', 1, 5, { tier: 'Gold', category: 'Cloud' });
        await mk('Gold first', 1, 0, { tier: 'Gold' });
        await mk('Silver top', 2, 0, { tier: 'Silver' });
        const names = async (query: Body = {}, token?: string) =>
          idsOf(await read('sponsor.find', { eventID, ...query }, token), 'name');
        const order = ['Gold first', 'Gold late', 'Silver top', 'silver a', 'Silver b', 'NoTier'];
        expect(await names()).toEqual(order);
        expect(await names({}, w.adminA)).toEqual(order);
        expect(await names({ tier: 'Silver' })).toEqual(['Silver top', 'silver a', 'Silver b']);
        expect(await names({ category: 'Cloud' })).toEqual(['Gold late']);
        expect(await names({ query: 'parent' })).toEqual(['silver a']);
        expect(await names({ query: 'gold' })).toEqual(['Gold first', 'Gold late']);
        const page = await c.call('sponsor.find', { query: { eventID, paginated: 1, limit: 2, offset: 2 } });
        expect(idsOf(page.data as Record<string, string>[], 'name')).toEqual(['Silver top', 'silver a']);
        expect(page.total).toBe('6');
      });
    });

    describe('tags', () => {
      it('tag.create: activity by default, attendee on request, stored with the event and its company', async () => {
        const t = await create('tag.create', { eventID: eventA() }, { name: ' Cloud ', color: '#A1B2C3' });
        expect(sorted(Object.keys(t))).toEqual(sorted(TAG_FIELDS));
        expect(t).toMatchObject({
          name: 'Cloud',
          color: '#a1b2c3',
          kind: 'activity',
          eventID: eventA(),
          companyID: w.companyA.companyID,
        });
        const a = await create('tag.create', { eventID: eventA() }, { name: 'Cloud', kind: 'attendee' });
        expect(a).toMatchObject({ name: 'Cloud', color: '', kind: 'attendee' });
        expect((await read('tag.get', { tagID: t.tagID }))[0]).toEqual(t);
      });

      it('tag.create refuses invalid fields and duplicate names (any case) within a kind', async () => {
        const bad = (body: Body, message: RegExp, status = 400) =>
          c.fail('tag.create', { token: w.adminA, query: { eventID: eventA() }, body }, status, message);
        await bad({}, /^400 name cannot be empty/);
        await bad({ name: '  ' }, /^400 name cannot be blank/);
        await bad({ name: long(101) }, /^400 name must be at most 100/);
        await bad({ name: 'X', color: 'red' }, /^400 color must be a colour as #rrggbb/);
        await bad({ name: 'X', color: '#12345' }, /^400 color must be a colour/);
        await bad({ name: 'X', kind: 'event' }, /^400 kind must be one of activity, attendee/);
        await create('tag.create', { eventID: eventA() }, { name: 'Unique' });
        await bad({ name: 'UNIQUE' }, /^409 the event already has an activity tag named UNIQUE/, 409);
        const o = (token?: string) => ({ token, query: { eventID: eventA() }, body: { name: 'Y' } });
        await c.fail('tag.create', o(), 401);
        await c.fail('tag.create', o(w.attendee), 403);
        await c.fail('tag.create', o(w.staff), 403);
        await c.fail('tag.create', o(w.adminB), 404);
        // Two concurrent creates of one name: exactly one wins.
        const race = await Promise.all(
          [0, 1, 2].map(() =>
            c.call('tag.create', { token: w.adminA, query: { eventID: eventA() }, body: { name: 'Racy' } }),
          ),
        );
        expect(race.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      });

      it('tag.edit: name, color, and kind only while unused', async () => {
        const t = await create('tag.create', { eventID: eventA() }, { name: 'Edit me', color: '#000000' });
        const tagID = t.tagID;
        const edit = (key: string, value: string) =>
          c.call('tag.edit', { token: w.adminA, query: { tagID, key }, body: { value } });
        expect((await edit('name', ' Edited ')).data[0].name).toBe('Edited');
        expect((await edit('color', '#FFFFFF')).data[0].color).toBe('#ffffff');
        expect((await edit('color', '')).data[0].color).toBe('');
        expect((await edit('kind', 'attendee')).data[0].kind).toBe('attendee');
        expect((await edit('kind', 'activity')).data[0].kind).toBe('activity');
        await create('tag.create', { eventID: eventA() }, { name: 'Taken' });
        await c.fail('tag.edit', { token: w.adminA, query: { tagID, key: 'name' }, body: { value: 'taken' } }, 409);
        const fail = (key: string, value: string, message: RegExp) =>
          c.fail('tag.edit', { token: w.adminA, query: { tagID, key }, body: { value } }, 400, message);
        await fail('name', '', /^400 value cannot be empty/);
        await fail('color', 'blue', /^400 value must be a colour as #rrggbb \(key color\)/);
        await fail('kind', 'event', /^400 value must be one of activity, attendee \(key kind\)/);
        await fail('eventID', '1', /cannot be edited here/);
        await fail('companyID', '1', /cannot be edited here/);
        // Carried by an activity: the kind is fixed, name and color are not.
        const { activityID } = await p.db
          .insertInto('activity')
          .values({ eventID: Number(eventA()), name: 'Tagged talk' })
          .returning('activityID')
          .executeTakeFirstOrThrow();
        await p.db
          .insertInto('activityTag')
          .values({ activityID, tagID: Number(tagID) })
          .execute();
        await c.fail(
          'tag.edit',
          { token: w.adminA, query: { tagID, key: 'kind' }, body: { value: 'attendee' } },
          409,
          /kind cannot change while activities or attendees carry the tag/,
        );
        expect((await edit('kind', 'activity')).status).toBe(200); // unchanged kind is fine
        expect((await edit('name', 'Still editable')).status).toBe(200);
        const o = (token?: string, id: string | number = tagID) => ({
          token,
          query: { tagID: id, key: 'name' },
          body: { value: 'x' },
        });
        await c.fail('tag.edit', o(), 401);
        await c.fail('tag.edit', o(w.attendee), 403);
        await c.fail('tag.edit', o(w.adminB), 404);
        await c.fail('tag.edit', o(w.adminA, 999999), 404, /^404 tag not found/);
        // tag.remove unbinds it from the activity.
        await c.fail('tag.remove', { query: { tagID } }, 401);
        await c.fail('tag.remove', { token: w.staff, query: { tagID } }, 403);
        await c.fail('tag.remove', { token: w.adminB, query: { tagID } }, 404);
        expect((await read('tag.remove', { tagID }, w.adminA))[0]).toMatchObject({ tagID, name: 'Still editable' });
        expect(await p.db.selectFrom('activityTag').selectAll().where('activityID', '=', activityID).execute()).toEqual(
          [],
        );
        await c.fail('tag.get', { query: { tagID } }, 404, /^404 tag not found/);
        await c.fail('tag.remove', { token: w.adminA, query: { tagID } }, 404, /^404 tag not found/);
      });

      it("the company's event tags are not the event's: not listed, not readable or editable by tag.*", async () => {
        const { tagID } = await p.db
          .insertInto('tag')
          .values({ companyID: Number(w.companyA.companyID), name: 'Directory', kind: 'event' })
          .returning('tagID')
          .executeTakeFirstOrThrow();
        await p.db
          .insertInto('eventTag')
          .values({ eventID: Number(eventA()), tagID })
          .execute();
        expect(idsOf(await read('tag.find', { eventID: eventA() }, w.adminA), 'tagID')).not.toContain(String(tagID));
        await c.fail('tag.get', { token: w.adminA, query: { tagID } }, 404, /^404 tag not found/);
        await c.fail('tag.edit', { token: w.adminA, query: { tagID, key: 'name' }, body: { value: 'x' } }, 404);
        await c.fail('tag.remove', { token: w.operator, query: { tagID } }, 404);
      });

      it('tag.find lists by name, filters by kind, pages; public-read rules for find and get', async () => {
        const eventID = await mkEvent('Tags', 'tags', { visible: 1 });
        for (const [name, kind] of [
          ['web', 'activity'],
          ['AI', 'activity'],
          ['Student', 'attendee'],
          ['data', 'activity'],
        ])
          await create('tag.create', { eventID }, { name, kind });
        const names = async (query: Body = {}) => idsOf(await read('tag.find', { eventID, ...query }), 'name');
        expect(await names()).toEqual(['AI', 'data', 'Student', 'web']);
        expect(await names({ kind: 'activity' })).toEqual(['AI', 'data', 'web']);
        expect(await names({ kind: 'attendee' })).toEqual(['Student']);
        expect(await names({ limit: 1, offset: 1 })).toEqual(['data']);
        expect((await c.call('tag.find', { query: { eventID, kind: 'activity', paginated: 1, limit: 1 } })).total).toBe(
          '3',
        );
        await c.fail('tag.find', { query: { eventID, kind: 'event' } }, 400, /^400 kind must be one of/);
        const ids: Record<string, string> = {};
        for (const id of [eventA(), privateID, hiddenID])
          ids[id] = (await create('tag.create', { eventID: id }, { name: 'Rules tag' })).tagID;
        await publicReads('tag.find', (id) => ({ eventID: id }), /^404 event not found/);
        await publicReads('tag.get', (id) => ({ tagID: ids[id] }), /^404 tag not found/);
      });
    });

    describe('hotsite sections', () => {
      it('event.hotsite.create takes every section kind (text sanitized); find reads them by position', async () => {
        const eventID = await mkEvent('Site', 'site', { visible: 1 });
        const made = [];
        for (const [i, section] of HOTSITE_SECTIONS.entries())
          made.push(
            await create(
              'event.hotsite.create',
              { eventID, section },
              {
                position: HOTSITE_SECTIONS.length - i,
                name: `About ${section}`,
                text: `<p>${section}<script>x</script></p>`,
              },
            ),
          );
        for (const [i, row] of made.entries()) {
          expect(sorted(Object.keys(row))).toEqual(sorted(SECTION_FIELDS));
          expect(row).toMatchObject({
            eventID,
            section: HOTSITE_SECTIONS[i],
            position: String(HOTSITE_SECTIONS.length - i),
            text: `<p>${HOTSITE_SECTIONS[i]}</p>`,
          });
        }
        const found = await read('event.hotsite.find', { eventID });
        expect(found).toEqual([...made].reverse());
        // Several sections of one kind; ties on position in creation order.
        const extra = await create('event.hotsite.create', { eventID, section: 'text' }, { position: 1 });
        expect(extra).toMatchObject({ name: '', text: '' });
        const texts = await read('event.hotsite.find', { eventID, section: 'text' });
        expect(idsOf(texts, 'position')).toEqual(['1', String(HOTSITE_SECTIONS.length - 1)]);
        const ones = (await read('event.hotsite.find', { eventID })).filter((r) => r.position === '1');
        expect(idsOf(ones, 'sectionID')).toEqual([made.at(-1)!.sectionID, extra.sectionID]);
        const page = await c.call('event.hotsite.find', { query: { eventID, paginated: 1, limit: 2, offset: 1 } });
        expect(page.total).toBe(String(HOTSITE_SECTIONS.length + 1));
        expect(page.count).toBe(2);
        await c.fail(
          'event.hotsite.find',
          { query: { eventID, section: 'video' } },
          400,
          /^400 section must be one of/,
        );
      });

      it('event.hotsite.create validates its parameters and needs an event admin token (deviation)', async () => {
        const o = (query: Body, body: Body, token: string | null = w.adminA) => ({ token: token ?? undefined, query, body });
        const q = { eventID: eventA(), section: 'text' };
        await c.fail('event.hotsite.create', o({ eventID: eventA() }, { position: 0 }), 400, /^400 section cannot be empty/);
        await c.fail('event.hotsite.create', o({ ...q, section: 'blog' }, { position: 0 }), 400, /^400 section must be one of cover, text/);
        await c.fail('event.hotsite.create', o(q, {}), 400, /^400 position cannot be empty/);
        await c.fail('event.hotsite.create', o(q, { position: 'top' }), 400, /^400 position must be an integer/);
        await c.fail('event.hotsite.create', o(q, { position: 0, name: long(201) }), 400, /^400 name must be at most 200/);
        await c.fail('event.hotsite.create', o(q, { position: 0, text: long(50001) }), 400, /^400 text must be at most 50000/);
        await c.fail('event.hotsite.create', o({ section: 'text' }, { position: 0 }), 400, /^400 eventID/);
        await c.fail('event.hotsite.create', o(q, { position: 0 }, null), 401);
        await c.fail('event.hotsite.create', o(q, { position: 0 }, w.attendee), 403);
        await c.fail('event.hotsite.create', o(q, { position: 0 }, w.staff), 403);
        await c.fail('event.hotsite.create', o(q, { position: 0 }, w.eventAdminEventScope), 403);
        await c.fail('event.hotsite.create', o(q, { position: 0 }, w.adminB), 404);
        await c.fail('event.hotsite.create', o({ ...q, eventID: 999999 }, { position: 0 }), 404);
        expect((await create('event.hotsite.create', q, { position: 0 }, w.eventAdminSystem)).section).toBe('text');
      }); // prettier-ignore

      it('event.hotsite.edit changes every key; event.hotsite.remove removes', async () => {
        const s = await create('event.hotsite.create', { eventID: eventA(), section: 'faq' }, { position: 4 });
        const sectionID = s.sectionID;
        const edit = (key: string, value: string) =>
          c.call('event.hotsite.edit', { token: w.adminA, query: { sectionID, key }, body: { value } });
        const faq = '<dl><dt>Is there parking?</dt><dd>Yes, <a href="https://maps.example/p">here</a>.</dd></dl>';
        const cases: Edit[] = [
          ['section', 'location', 'location', 'map', /^400 value must be one of cover, text.* \(key section\)/],
          ['position', '9', '9', '-2', /integer from 0 to 1000000 \(key position\)/],
          ['name', 'Getting there', 'Getting there', long(201), /at most 200 characters \(key name\)/],
          ['text', `${faq}<img src=x onerror=alert(1)>`, faq, long(50001), /^400 value must be at most 50000 characters/],
        ];
        for (const [key, value, back, invalid, message] of cases) {
          expect((await edit(key, value)).data[0][key], key).toBe(back);
          await c.fail(
            'event.hotsite.edit',
            { token: w.adminA, query: { sectionID, key }, body: { value: invalid } },
            400,
            message,
          );
          const [row] = (await read('event.hotsite.find', { eventID: eventA() })).filter(
            (r) => r.sectionID === sectionID,
          );
          expect(row[key]).toBe(back);
        }
        expect((await edit('name', '')).data[0].name).toBe('');
        expect((await edit('text', '')).data[0].text).toBe('');
        expect((await edit('position', '')).data[0].position).toBe('0');
        await c.fail('event.hotsite.edit', { token: w.adminA, query: { sectionID, key: 'section' }, body: {} }, 400, /^400 value cannot be empty/);
        await c.fail('event.hotsite.edit', { token: w.adminA, query: { sectionID, key: 'eventID' }, body: { value: '1' } }, 400, /cannot be edited here/);
        const o = (token?: string, id: string | number = sectionID) => ({ token, query: { sectionID: id, key: 'name' }, body: { value: 'x' } });
        await c.fail('event.hotsite.edit', o(), 401);
        await c.fail('event.hotsite.edit', o(w.attendee), 403);
        await c.fail('event.hotsite.edit', o(w.staff), 403);
        await c.fail('event.hotsite.edit', o(w.adminB), 404);
        await c.fail('event.hotsite.edit', o(w.adminA, 999999), 404, /^404 section not found/);

        await c.fail('event.hotsite.remove', { query: { sectionID } }, 401);
        await c.fail('event.hotsite.remove', { token: w.attendee, query: { sectionID } }, 403);
        await c.fail('event.hotsite.remove', { token: w.adminB, query: { sectionID } }, 404);
        const [removed] = await read('event.hotsite.remove', { sectionID }, w.adminA);
        expect(removed).toMatchObject({ sectionID, section: 'location', position: '0' });
        expect(idsOf(await read('event.hotsite.find', { eventID: eventA() }), 'sectionID')).not.toContain(sectionID);
        await c.fail('event.hotsite.remove', { token: w.adminA, query: { sectionID } }, 404, /^404 section not found/);
      }); // prettier-ignore

      it('event.hotsite.find follows the public-read rules', async () => {
        for (const eventID of [privateID, hiddenID])
          await create('event.hotsite.create', { eventID, section: 'cover' }, { position: 0 });
        await publicReads('event.hotsite.find', (eventID) => ({ eventID }), /^404 event not found/);
        expect(await read('event.hotsite.find', { eventID: privateID, grant })).toHaveLength(1);
      });

      it('an event has at most 100 sections', async () => {
        const eventID = await mkEvent('Full', 'full', {});
        await p.db
          .insertInto('hotsite')
          .values(Array.from({ length: 100 }, (_, i) => ({ eventID: Number(eventID), section: 'text', position: i })))
          .execute();
        await c.fail(
          'event.hotsite.create',
          { token: w.adminA, query: { eventID, section: 'text' }, body: { position: 0 } },
          409,
          /at most 100 hotsite sections/,
        );
        const all = await read('event.hotsite.find', { eventID, limit: 100 }, w.adminA);
        expect(all).toHaveLength(100);
      });
    });

    describe('public answers', () => {
      it('are never stale after a write (every write clears the cache of public answers)', async () => {
        const eventID = await mkEvent('Cached', 'cached', { visible: 1 });
        const s = await create('speaker.create', { eventID }, { name: 'Before' });
        const sp = await create('sponsor.create', { eventID }, { name: 'Before' });
        const t = await create('tag.create', { eventID }, { name: 'Before' });
        const h = await create('event.hotsite.create', { eventID, section: 'text' }, { position: 0, name: 'Before' });
        const cases: [string, Body, string, Body][] = [
          ['speaker.find', { eventID }, 'speaker.edit', { speakerID: s.speakerID }],
          ['speaker.get', { speakerID: s.speakerID }, 'speaker.edit', { speakerID: s.speakerID }],
          ['sponsor.find', { eventID }, 'sponsor.edit', { sponsorID: sp.sponsorID }],
          ['sponsor.get', { sponsorID: sp.sponsorID }, 'sponsor.edit', { sponsorID: sp.sponsorID }],
          ['tag.find', { eventID }, 'tag.edit', { tagID: t.tagID }],
          ['tag.get', { tagID: t.tagID }, 'tag.edit', { tagID: t.tagID }],
          ['event.hotsite.find', { eventID }, 'event.hotsite.edit', { sectionID: h.sectionID }],
        ];
        for (const [i, [readOp, query, editOp, target]] of cases.entries()) {
          const before = `Before ${i}`;
          const after = `After ${i}`;
          await c.ok(editOp, { token: w.adminA, query: { ...target, key: 'name' }, body: { value: before } });
          expect((await read(readOp, query))[0].name).toBe(before);
          expect((await read(readOp, query))[0].name).toBe(before); // served from the cache
          await c.ok(editOp, { token: w.adminA, query: { ...target, key: 'name' }, body: { value: after } });
          expect((await read(readOp, query))[0].name, readOp).toBe(after);
        }
        // Removing and hiding count too.
        expect(await read('speaker.find', { eventID })).toHaveLength(1);
        await read('speaker.remove', { speakerID: s.speakerID }, w.adminA);
        expect(await read('speaker.find', { eventID })).toHaveLength(0);
        await read('sponsor.find', { eventID });
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 0 } });
        await c.fail('sponsor.find', { query: { eventID } }, 404);
      });
    });
  });
});
