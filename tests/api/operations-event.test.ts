// Event operations over real HTTP, in both call styles and on both stores (spec §4.2, §2.2).
// company.event.find and event.edit have their own files: operations-event-find.test.ts, operations-event-edit.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, nowSeconds, type Client } from '../helpers/operations.ts';

const DAY = 86400;
/** Every field of spec §2.2 (plus `email`, the organization e-mail of the list shape). */
const EVENT_FIELDS = `eventID name nickname emailAddress emailName emailDNS emailReplyTo description background cover
  coverVideo welcomeOverlay activityLayout fontFamily page contentPage ownerID creatorID dateCreated dateBegin dateEnd
  enrollmentBegin enrollmentEnd accessEnd quarter eventDays month capacity invites guestsForMember keywords timezone
  currency latitude longitude spot placeID address city state fugleman ebEventID ticketURL language contentLanguage
  googleAnalytics googleTagManager socialAPixel socialBPixel intercomTag website faq agreement socialA socialD socialC
  rss cname archived visible published public presential budget automaticEnrollment sandbox vlTemplate
  vlControlRoomLayout vlBackgroundIdle vlJoinBeforeStarts vlJoinAfterEnds vlNetworkingRouletteTimer meetingStartTime
  meetingEndTime meetingDurationTime accessCode wireless templateID companyID hasTag hasFeedback hasPhoto hasMaterial
  hasSponsor systemLevel companyLevel personID role company level approved templateName templateColor isSponsor
  placeName happeningNow happeningAfter peopleCount email printLimit smsText`.split(/\s+/);
const ADMIN_ONLY = ['accessCode', 'budget', 'emailDNS', 'sandbox', 'siblingID', 'printLimit', 'smsText'];
const GATE_FIELDS = [
  'eventID',
  'companyID',
  'name',
  'nickname',
  'cover',
  'background',
  'timezone',
  'language',
  'public',
  'visible',
];

const T0 = Date.UTC(2031, 4, 10, 12, 0, 0) / 1000; // 2031-05-10 12:00 UTC

describe.each(STORES)('event operations on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let adminAID: string;
    beforeAll(async () => {
      p = await startTestPlatform(kind, { TRUST_PROXY: '127.0.0.1' });
      w = await world(p);
      c = client(p, style);
      const people = await c.ok('company.person.find', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID, selection: 'all' },
      });
      adminAID = people.find((r) => r.email === 'admin-a@podium.test')!.personID;
    });
    afterAll(() => p?.close());

    const bind = async (
      body: { name: string; nickname: string },
      query: Record<string, string | number> = {},
      token = w.adminA,
    ) =>
      // prettier-ignore
      (await c.ok('company.event.bind', { token, query: { companyID: w.companyA.companyID, ...query }, body }))[0];
    const edit = (eventID: string, key: string, value: string | number, token = w.adminA) =>
      c.call('event.edit', { token, query: { eventID, key }, body: { value } });
    const set = async (eventID: string, edits: Record<string, string | number>, token = w.adminA) => {
      for (const [key, value] of Object.entries(edits))
        expect((await edit(eventID, key, value, token)).text).toMatch(/^\{/);
    };
    /** event.get as the company admin by default; null reads anonymously. */
    const get = async (eventID: string, token: string | null = w.adminA) =>
      (await c.ok('event.get', { token: token ?? undefined, query: { eventID } }))[0];

    describe('company.event.bind', () => {
      it('creates a hidden event with every §2.2 field, stored as answered', async () => {
        const before = nowSeconds();
        const row = await bind({ name: '  Plain Event  ', nickname: 'plain' });
        expect(Object.keys(row)).toEqual(expect.arrayContaining(EVENT_FIELDS));
        expect(row).toMatchObject({
          name: 'Plain Event',
          nickname: 'plain',
          companyID: w.companyA.companyID,
          visible: '0',
          isTemplate: '0',
          templateID: '0',
          siblingID: '0',
          creatorID: adminAID,
          ownerID: adminAID,
          timezone: 'UTC',
        });
        expect(Number(row.dateCreated)).toBeGreaterThanOrEqual(before);
        // Read back by the admin: the same record, with the reader's own registration fields.
        const viewer = ['personID', 'role', 'company', 'level', 'approved', 'systemLevel', 'companyLevel'];
        const stable = Object.fromEntries(Object.entries(row).filter(([k]) => !viewer.includes(k)));
        expect(await get(row.eventID)).toMatchObject({ ...stable, personID: adminAID, companyLevel: '4' });
        await c.fail('event.get', { query: { eventID: row.eventID } }, 404); // hidden from the public
      });

      it('copies a sibling event except identity, code, cname and archived, with its tags', async () => {
        const source = await bind({ name: 'Source', nickname: 'source' });
        // prettier-ignore
        await set(source.eventID, {
          address: 'Rua Augusta 1', timezone: 'Europe/Lisbon', city: 'Lisbon', latitude: '38.7',
          description: '<p>About</p>', cover: 'https://cdn.example.com/s.png', dateBegin: T0, dateEnd: T0 + DAY,
          cname: 'source.example.com', accessCode: 4321, visible: 1, public: 0, archived: 1, presential: 1,
        });
        const tag = await p.db
          .insertInto('tag')
          .values({ companyID: Number(w.companyA.companyID), name: 'AI', kind: 'event' })
          .returning('tagID')
          .executeTakeFirstOrThrow();
        await p.db
          .insertInto('eventTag')
          .values({ eventID: Number(source.eventID), tagID: tag.tagID })
          .execute();

        const copy = await bind({ name: 'Copy', nickname: 'copy' }, { siblingID: source.eventID });
        const stored = await get(copy.eventID);
        for (const row of [copy, stored]) {
          // prettier-ignore
          expect(row).toMatchObject({
            name: 'Copy', nickname: 'copy', siblingID: source.eventID, templateID: '0', isTemplate: '0',
            address: 'Rua Augusta 1', timezone: 'Europe/Lisbon', city: 'Lisbon', latitude: '38.7',
            description: '<p>About</p>', cover: 'https://cdn.example.com/s.png', dateBegin: String(T0),
            dateEnd: String(T0 + DAY), visible: '0', public: '0', presential: '1',
            cname: '', cnameState: '', cnameDNS: '', accessCode: '', archived: '0', hasTag: '1', creatorID: adminAID,
          });
        }
        expect((await get(source.eventID)).cname).toBe('source.example.com');
      });

      it('makes a template with isTemplate=1 and creates from it with templateID', async () => {
        const template = await bind({ name: 'Conference Template', nickname: 'tpl' }, { isTemplate: 1 });
        expect(template.isTemplate).toBe('1');
        await set(template.eventID, { address: 'Template Street', timezone: 'Asia/Tokyo', visible: 1 });
        await c.fail('event.get', { query: { eventID: template.eventID } }, 404); // templates are never public

        const made = await bind({ name: 'From Template', nickname: 'from-tpl' }, { templateID: template.eventID });
        expect(made).toMatchObject({
          templateID: template.eventID,
          templateName: 'Conference Template',
          isTemplate: '0',
          siblingID: '0',
          address: 'Template Street',
          timezone: 'Asia/Tokyo',
          name: 'From Template',
        });
        expect((await get(made.eventID)).templateName).toBe('Conference Template');

        const plain = await bind({ name: 'Not A Template', nickname: 'not-tpl' });
        const [tplB] = await c.ok('company.event.bind', {
          token: w.adminB,
          query: { companyID: w.companyB.companyID, isTemplate: 1 },
          body: { name: 'B Template', nickname: 'b-tpl' },
        });
        const refusals = [
          [{ templateID: plain.eventID }, 400, /must name a template/],
          [{ templateID: tplB.eventID }, 404, /template not found/],
          [{ siblingID: w.eventB.eventID }, 404, /sibling event not found/],
          [{ templateID: '999999' }, 404, /template not found/],
          [{ templateID: template.eventID, siblingID: plain.eventID }, 400, /not both/],
          [{ isTemplate: 2 }, 400, /isTemplate/],
        ] as const;
        for (const [query, status, message] of refusals)
          await c.fail(
            'company.event.bind',
            {
              token: w.adminA,
              query: { companyID: w.companyA.companyID, ...query },
              body: { name: 'X', nickname: 'refused' },
            },
            status,
            message,
          );
      });

      it('refuses a nickname used in the company with 409; another company may use it', async () => {
        await c.fail(
          'company.event.bind',
          { token: w.adminA, query: { companyID: w.companyA.companyID }, body: { name: 'Again', nickname: 'a-one' } },
          409,
        );
        const [inB] = await c.ok('company.event.bind', {
          token: w.adminB,
          query: { companyID: w.companyB.companyID },
          body: { name: 'Also A One', nickname: 'a-one' },
        });
        expect(inB).toMatchObject({ nickname: 'a-one', companyID: w.companyB.companyID });
      });

      it('keeps nothing in sandbox mode', async () => {
        const ghost = await bind({ name: 'Ghost', nickname: 'ghost' }, { sandbox: 1 });
        await c.fail('event.get', { token: w.adminA, query: { eventID: ghost.eventID } }, 404);
        expect((await bind({ name: 'Ghost', nickname: 'ghost' })).nickname).toBe('ghost');
      });

      it.each([
        ['an invalid nickname', 'adminA', { name: 'X', nickname: 'Bad Nick' }, 400],
        ['no name', 'adminA', { nickname: 'no-name' }, 400],
        ['a blank name', 'adminA', { name: '   ', nickname: 'blank-name' }, 400],
        ['no nickname', 'adminA', { name: 'X' }, 400],
        ['an external user', 'externalA', { name: 'X', nickname: 'ext' }, 403],
        ['an event-scope token of the company', 'eventAdminEventScope', { name: 'X', nickname: 'evs' }, 403],
        ['another company’s admin', 'adminB', { name: 'X', nickname: 'other' }, 404],
        ['no token', undefined, { name: 'X', nickname: 'anon' }, 401],
      ] as const)('refuses %s', async (_, who, body, status) => {
        await c.fail(
          'company.event.bind',
          { token: who ? w[who] : undefined, query: { companyID: w.companyA.companyID }, body },
          status,
        );
      });
    });

    describe('event.get', () => {
      let priv: Record<string, string>;
      let hidden: Record<string, string>;
      beforeAll(async () => {
        priv = await bind({ name: 'Private', nickname: 'private' });
        await set(priv.eventID, { visible: 1, accessCode: 4321, public: 0, cover: 'https://cdn.example.com/p.png' });
        hidden = await bind({ name: 'Hidden', nickname: 'hidden' });
      });

      it('shows the public form without a token: no admin-only fields, nobody’s registration', async () => {
        const row = await get(w.eventA.eventID, null);
        expect(Object.keys(row).sort()).toEqual(
          EVENT_FIELDS.filter((f) => !ADMIN_ONLY.includes(f))
            .concat(['isTemplate'])
            .sort(),
        );
        expect(row).toMatchObject({
          eventID: w.eventA.eventID,
          name: 'A One',
          approved: '-1',
          level: '0',
          personID: '0',
          peopleCount: '3',
        });
      });

      it('shows a private event to the public only as its access-code gate', async () => {
        for (const token of [null, w.adminB, w.attendee]) {
          const row = await get(priv.eventID, token);
          expect(Object.keys(row).sort(), String(token)).toEqual([...GATE_FIELDS].sort());
          expect(row).toMatchObject({ name: 'Private', public: '0', cover: 'https://cdn.example.com/p.png' });
        }
        expect((await get(priv.eventID, w.adminA)).accessCode).toBe('4321');
        expect(await get(priv.eventID, w.externalA)).not.toHaveProperty('accessCode'); // company person, not admin
      });

      it('hides invisible events and templates from the public with 404', async () => {
        await c.fail('event.get', { query: { eventID: hidden.eventID } }, 404);
        await c.fail('event.get', { token: w.adminB, query: { eventID: hidden.eventID } }, 404);
        await c.fail('event.get', { query: { eventID: '999999' } }, 404);
        expect((await get(hidden.eventID, w.adminA)).visible).toBe('0');
        expect((await get(hidden.eventID, w.externalA)).name).toBe('Hidden');
      });

      it.each([
        ['the attendee (event scope)', 'attendee', { approved: '1', level: '1', personID: 'attendee', systemLevel: '0', companyLevel: '0' }, false], // prettier-ignore
        ['the attendee (system scope)', 'attendeeSystem', { approved: '1', level: '1', personID: 'attendee' }, false],
        ['a staff member', 'staff', { approved: '1', level: '64' }, false],
        ['an event admin (event scope, downgraded)', 'eventAdminEventScope', { level: '1' }, false],
        ['an event admin (system scope)', 'eventAdminSystem', { level: '4', companyLevel: '0' }, true],
        ['the company admin', 'adminA', { approved: '-1', level: '0', companyLevel: '4', systemLevel: '0' }, true],
        ['an external user', 'externalA', { approved: '-1', companyLevel: '1' }, false],
        ['the operator', 'operator', { systemLevel: '1', companyLevel: '4' }, true],
        ['an unrelated person', 'adminB', { approved: '-1', level: '0', companyLevel: '0' }, false],
      ] as const)('with a token shows the registration of %s', async (_, who, expected, full) => {
        const row = await get(w.eventA.eventID, w[who]);
        const want = { ...expected, ...('personID' in expected ? { personID: String(w.attendeeID) } : {}) };
        expect(row).toMatchObject(want);
        expect('accessCode' in row).toBe(full);
      });

      it('shows another person’s registration to admins only (personID)', async () => {
        const query = { eventID: w.eventA.eventID, personID: String(w.attendeeID) };
        for (const token of [w.adminA, w.eventAdminSystem, w.operator]) {
          const [row] = await c.ok('event.get', { token, query });
          // The levels shown are the attendee's, not the admin's who asks.
          expect(row).toMatchObject({ personID: String(w.attendeeID), approved: '1', level: '1', systemLevel: '0', companyLevel: '0' }); // prettier-ignore
        }
        const [outsider] = await c.ok('event.get', { token: w.operator, query: { ...query, personID: adminAID } });
        expect(outsider).toMatchObject({ personID: adminAID, approved: '-1', level: '0', companyLevel: '4', systemLevel: '0' }); // prettier-ignore
        await c.fail('event.get', { token: w.staff, query }, 403);
        await c.fail('event.get', { token: w.eventAdminEventScope, query }, 403);
        await c.fail('event.get', { token: w.adminB, query }, 404);
        await c.fail('event.get', { query }, 404);
        await c.fail('event.get', { token: w.adminA, query: { ...query, personID: '999999' } }, 404);
      });

      it('finds an event by namespace + nickname and by cname', async () => {
        // Served as a domain whose DNS check passed is (tests/api/custom-domains.test.ts checks that).
        await p.db.updateTable('event').set({ cname: 'www.a-one.example', cnameAsked: 'www.a-one.example', cnameState: 'verified' }).where('eventID', '=', Number(w.eventA.eventID)).execute(); // prettier-ignore
        for (const query of [
          { namespace: w.companyA.namespace, nickname: 'a-one' },
          { namespace: w.companyA.namespace.toUpperCase(), nickname: 'a-one' },
          { cname: 'WWW.A-One.Example.' },
          { cname: 'www.a-one.example' },
        ] as Record<string, string>[]) {
          const [row] = await c.ok('event.get', { query });
          expect(row, JSON.stringify(query)).toMatchObject({ eventID: w.eventA.eventID, cname: 'www.a-one.example' });
        }
        const [b] = await c.ok('event.get', { query: { namespace: w.companyB.namespace, nickname: 'b-one' } });
        expect(b.eventID).toBe(w.eventB.eventID);
        for (const [query, status] of [
          [{ namespace: w.companyA.namespace, nickname: 'b-one' }, 404],
          [{ namespace: 'nobody-here', nickname: 'a-one' }, 404],
          [{ cname: 'nobody.example.com' }, 404],
          [{ cname: 'not a host' }, 400],
          [{ nickname: 'a-one' }, 400],
          [{ namespace: w.companyA.namespace }, 400],
          [{}, 400],
        ] as const)
          await c.fail('event.get', { query }, status);
      });

      it('computes month, quarter and eventDays in the event’s time zone, and happeningNow/After', async () => {
        const timed = await bind({ name: 'Timed', nickname: 'timed' });
        const begin = Date.UTC(2031, 2, 31, 20, 0, 0) / 1000; // 31 March 20:00 UTC = 1 April 05:00 in Tokyo
        await set(timed.eventID, { visible: 1, dateBegin: begin, dateEnd: begin + 2.5 * DAY });
        expect(await get(timed.eventID, null)).toMatchObject({
          month: '3',
          quarter: '1',
          eventDays: '3',
          happeningNow: '0',
          happeningAfter: '1',
        });
        await set(timed.eventID, { timezone: 'Asia/Tokyo' });
        expect(await get(timed.eventID, null)).toMatchObject({ month: '4', quarter: '2' });
        const now = nowSeconds();
        await set(timed.eventID, { dateBegin: now - 3600, dateEnd: now + 3600 });
        expect(await get(timed.eventID, null)).toMatchObject({
          eventDays: '1',
          happeningNow: '1',
          happeningAfter: '0',
        });
      });
    });

    describe('event.checkAccessCode', () => {
      let locked: Record<string, string>;
      const check = (eventID: string, accessCode: string, o: { token?: string; ip?: string } = {}) =>
        c.call('event.checkAccessCode', {
          token: o.token,
          query: { eventID },
          body: { accessCode },
          headers: o.ip ? { 'x-forwarded-for': o.ip } : {},
        });
      const privateEvent = async (nickname: string, code: number) => {
        const e = await bind({ name: nickname, nickname });
        await set(e.eventID, { visible: 1, accessCode: code, public: 0 });
        return e;
      };
      beforeAll(async () => {
        locked = await privateEvent('locked', 4321);
      });

      it('tells whether the code is correct, with or without a token', async () => {
        for (const token of [undefined, w.attendee, w.adminB]) {
          const [right] = (await check(locked.eventID, '4321', { token })).data as Record<string, string>[];
          expect(right).toEqual({ eventID: locked.eventID, correct: '1', required: '1', grant: expect.any(String) });
          // The grant names the event and expires in 7 days; its signature is checked where it is used.
          const [grantEvent, expires] = right.grant.split('.');
          expect(grantEvent).toBe(locked.eventID);
          expect(Number(expires) - nowSeconds()).toBeGreaterThan(7 * 86400 - 60);
          expect((await check(locked.eventID, '1234', { token })).data).toEqual([
            { eventID: locked.eventID, correct: '0', required: '1', grant: '' },
          ]);
        }
        expect((await check(w.eventA.eventID, '1234')).data).toEqual([
          { eventID: w.eventA.eventID, correct: '0', required: '0', grant: '' },
        ]);
        // A new code replaces the old one.
        await set(locked.eventID, { accessCode: 9 });
        expect((await check(locked.eventID, '9')).data[0].correct).toBe('1');
        expect((await check(locked.eventID, '4321')).data[0].correct).toBe('0');
        await set(locked.eventID, { accessCode: 4321 });
      });

      it.each([
        ['a code that is not a number', 'abcd', 400],
        ['a five-digit code', '12345', 400],
        ['code 0 (codes are 1..9999)', '0', 400],
        ['code 0000', '0000', 400],
        ['no code', '', 400],
      ])('refuses %s', async (_, code, status) => {
        expect((await check(locked.eventID, code)).status).toBe(status);
      });

      it('answers 404 for an invisible or unknown event, 405 for GET', async () => {
        const hidden = await bind({ name: 'Hidden Locked', nickname: 'hidden-locked' });
        await set(hidden.eventID, { accessCode: 1111, public: 0 });
        expect((await check(hidden.eventID, '1111')).status).toBe(404);
        expect((await check(hidden.eventID, '1111', { token: w.adminB })).status).toBe(404);
        // Its admins may try the code of an event they have not made visible yet.
        expect((await check(hidden.eventID, '1111', { token: w.adminA })).data[0].correct).toBe('1');
        expect((await check('999999', '1111')).status).toBe(404);
      });

      it('event.get shows a private event whole with the grant of a correct code, the gate without', async () => {
        const [right] = (await check(locked.eventID, '4321')).data as Record<string, string>[];
        const query = { eventID: locked.eventID };
        const [gate] = await c.ok('event.get', { query });
        expect(Object.keys(gate).sort()).toEqual([...GATE_FIELDS].sort());
        const [whole] = await c.ok('event.get', { query: { ...query, grant: right.grant } });
        expect(whole).toMatchObject({
          eventID: locked.eventID,
          description: expect.any(String),
          dateBegin: expect.any(String),
        });
        expect('accessCode' in whole).toBe(false);
        // Another event's grant, or a forged one, unlocks nothing.
        const forged = right.grant.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
        for (const grant of [forged, `${w.eventA.eventID}.${right.grant.split('.').slice(1).join('.')}`])
          expect(Object.keys((await c.ok('event.get', { query: { ...query, grant } }))[0]).sort()).toEqual(
            [...GATE_FIELDS].sort(),
          );
        await c.fail('event.checkAccessCode', { method: 'GET', query: { eventID: locked.eventID } }, 405);
      });

      it('a new access code ends the grants of the old one (a leaked code is changed, its grants with it)', async () => {
        const e = await privateEvent('rotated', 1234);
        const grantOf = async (code: string) =>
          ((await check(e.eventID, code)).data[0] as Record<string, string>).grant;
        const whole = async (grant: string) =>
          'description' in (await c.ok('event.get', { query: { eventID: e.eventID, grant } }))[0];
        const old = await grantOf('1234');
        expect(await whole(old)).toBe(true);
        await set(e.eventID, { accessCode: 5678 });
        expect(await whole(old)).toBe(false);
        expect(await whole(await grantOf('5678'))).toBe(true);
      });

      it('counts an IPv6 client by its /64 (person.signIn): a new address of its network gets no new budget', async () => {
        await p.person('sixty-four@podium.test', PASSWORD);
        const from = (ip: string, password: string) =>
          c.call('person.signIn', { query: { username: 'sixty-four@podium.test' }, body: { password }, headers: { 'x-forwarded-for': ip } }); // prettier-ignore
        for (let i = 0; i < 10; i++) expect((await from(`2001:db8:1:2::${i + 1}`, `wrong ${i}`)).status).toBe(401);
        expect((await from('2001:db8:1:2:ffff:1:2:3', PASSWORD)).status).toBe(429);
        expect((await from('2001:db8:1:3::1', PASSWORD)).status).toBe(200); // another network
      });

      it('blocks a client after 20 wrong codes (429 with Retry-After), not other clients or events', async () => {
        const e = await privateEvent('throttled', 1111);
        for (let i = 0; i < 30; i++)
          expect((await check(e.eventID, '1111', { ip: '10.0.0.1' })).data[0].correct).toBe('1');
        for (let i = 0; i < 20; i++)
          expect((await check(e.eventID, String(2000 + i), { ip: '10.0.0.1' })).data[0].correct).toBe('0');
        for (const code of ['2222', '1111']) {
          const r = await check(e.eventID, code, { ip: '10.0.0.1' });
          expect(r.status).toBe(429);
          const retry = Number(r.headers.get('retry-after'));
          expect(retry).toBeGreaterThan(3500);
          expect(retry).toBeLessThanOrEqual(3600);
        }
        // Another client is not blocked; the event's budget (20 wrong codes) is spent too, so it is asked
        // for a solved challenge (428) — see tests/security/access-gate.test.ts.
        expect((await check(e.eventID, '1111', { ip: '10.0.0.2' })).status).toBe(428);
        expect((await check(locked.eventID, '4321', { ip: '10.0.0.1' })).data[0].correct).toBe('1');
      });

      it('asks everyone on an event for a solved challenge after 20 wrong codes from many clients', async () => {
        const e = await privateEvent('besieged', 1111);
        const statuses = await Promise.all(
          Array.from({ length: 25 }, (_, n) =>
            check(e.eventID, '2222', { ip: `10.1.0.${n + 1}` }).then((r) => r.status),
          ),
        );
        expect(statuses.filter((s) => s === 200)).toHaveLength(20);
        expect(statuses.filter((s) => s === 428)).toHaveLength(5);
        // No lockout: the right code with a solved challenge gets in (tests/security/access-gate.test.ts).
        const r = await check(e.eventID, '1111', { ip: '10.2.0.1' });
        expect(r.status).toBe(428);
        expect(r.text).toMatch(/event\.accessCode\.challenge/);
        expect((await check(locked.eventID, '4321', { ip: '10.2.0.1' })).status).toBe(200);
      });
    });
  });
});
