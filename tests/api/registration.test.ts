// The registration form over real HTTP, in both call styles and on both stores: form.respondRegistration
// (spec §4.4) and the extensions that make its form data — form.get, form.edit, feedback.*, event.invite.*.
// Concurrency (capacity, the same e-mail twice): registration-concurrency.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STORES,
  startTestPlatform,
  world,
  type CallOptions,
  type TestPlatform,
  type World,
} from '../helpers/platform.ts';
import { STYLES, client, nowSeconds, type Client } from '../helpers/operations.ts';

const FORM_FIELDS = [
  'eventID', 'name', 'enrollmentOpen', 'acceptsRegistrations', 'reason', 'inviteRequired', 'capacity', 'remaining',
  'waitingList', 'enrollmentBegin', 'enrollmentEnd', 'consent', 'timezone', 'language', 'fields', 'tags',
  'approvalRequired', 'guestsForMember',
]; // prettier-ignore
const FIELD_FIELDS = [
  'feedbackID',
  'eventID',
  'name',
  'description',
  'type',
  'options',
  'apiKey',
  'required',
  'position',
];
/** The answer is the attendee record of spec §2.3 (with the short shape's enrollmentID) plus tokenID and duplicate. */
const ANSWER_FIELDS = [
  'username', 'socialAID', 'socialBID', 'socialCID', 'email', 'telephone', 'qrCode', 'ebQrCode', 'nfc', 'eventID',
  'personID', 'firstName', 'lastName', 'name', 'personName', 'role', 'company', 'summary', 'image', 'headline',
  'personHeadline', 'city', 'socialA', 'socialB', 'socialC', 'socialD', 'website', 'position', 'level', 'ebUserID',
  'mkUserID', 'approved', 'paid', 'rsvp', 'present', 'message', 'private', 'meetingQuotaID', 'meetingAutoConfirm',
  'engagement', 'language', 'personLanguage', 'origin', 'crmAID', 'crmAType', 'crmBID', 'enrollmentDate',
  'updatedDate', 'meetingQuotaName', 'meetingQuotaAmount', 'device', 'downloaded', 'favorite', 'ally', 'isSponsor',
  'prints', 'profileID', 'ticketID', 'assistantEmail', 'ticketName', 'ticketEntrance', 'tags', 'speakerID',
  'enrollmentID', 'tokenID', 'duplicate', 'guests', 'emailed',
]; // prettier-ignore
const INVITE_FIELDS = ['eventID', 'email', 'dateCreated', 'registered', 'personID'];
const DAY = 86400;

describe.each(STORES)('registration on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let seq = 0;
    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
    });
    afterAll(() => p?.close());

    /** A new visible, public event of company A, with these form settings. */
    async function newEvent(settings: Record<string, string | number> = {}): Promise<string> {
      seq += 1;
      const { eventID } = (
        await c.ok('company.event.bind', {
          token: w.adminA,
          query: { companyID: w.companyA.companyID },
          body: { name: `Form ${seq}`, nickname: `form-${seq}` },
        })
      )[0];
      await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
      for (const [key, value] of Object.entries(settings))
        await c.ok('form.edit', { token: w.adminA, query: { eventID, key }, body: { value } });
      return eventID;
    }
    const field = async (eventID: string, body: Record<string, string | number>) =>
      (await c.ok('feedback.create', { token: w.adminA, query: { eventID }, body }))[0];
    const form = async (eventID: string, token?: string) => (await c.ok('form.get', { token, query: { eventID } }))[0];
    const register = (eventID: string, body: Record<string, string | number>, query: Record<string, string> = {}) =>
      c.call('form.respondRegistration', {
        query: { eventID, ...query },
        body: { firstName: 'Ana', lastName: 'Lima', feedbackContent: '[]', ...body },
      });
    const registered = async (eventID: string, body: Record<string, string | number>, token?: string) => {
      const r = await (token === undefined ? register(eventID, body) : c.call('form.respondRegistration', {
        token,
        query: { eventID },
        body: { firstName: 'Ana', lastName: 'Lima', feedbackContent: '[]', ...body },
      })); // prettier-ignore
      expect(r.text.slice(0, 200)).toMatch(/^\{/);
      return r.data[0] as Record<string, string>;
    };
    const tag = async (eventID: string | null, name: string, kind: string) =>
      String(
        (
          await p.db
            .insertInto('tag')
            .values({
              companyID: Number(w.companyA.companyID),
              eventID: eventID === null ? null : Number(eventID),
              name,
              kind,
            })
            .returning('tagID')
            .executeTakeFirstOrThrow()
        ).tagID,
      );
    const answersOf = async (eventID: string, personID: string) =>
      Object.fromEntries(
        (
          await p.db
            .selectFrom('feedbackAnswer')
            .select(['feedbackID', 'value'])
            .where('eventID', '=', Number(eventID))
            .where('personID', '=', Number(personID))
            .execute()
        ).map((r) => [String(r.feedbackID), r.value]),
      );
    const attendeesOf = async (eventID: string) =>
      p.db.selectFrom('eventPerson').selectAll().where('eventID', '=', Number(eventID)).execute();
    /** The answers of an admin operation to callers without the right: none, too low, unrelated. */
    async function refusesOthers(name: string, o: CallOptions) {
      await c.fail(name, o, 401, /tokenID cannot be empty/);
      await c.fail(name, { ...o, token: w.attendee }, 403);
      await c.fail(name, { ...o, token: w.staff }, 403);
      await c.fail(name, { ...o, token: w.eventAdminEventScope }, 403); // Admin downgraded to User (§5.3)
      await c.fail(name, { ...o, token: w.attendeeSystem }, 403);
      await c.fail(name, { ...o, token: w.adminB }, 404);
    }

    describe('form.get', () => {
      it('describes an open form with no fields: every key, public and cached-safe', async () => {
        const eventID = await newEvent();
        const row = await form(eventID);
        expect(Object.keys(row).sort()).toEqual([...FORM_FIELDS].sort());
        expect(row).toEqual({
          eventID,
          name: `Form ${seq}`,
          enrollmentOpen: '1',
          acceptsRegistrations: '1',
          reason: '',
          inviteRequired: '0',
          capacity: '0',
          remaining: '',
          waitingList: '0',
          approvalRequired: '0',
          guestsForMember: '0',
          enrollmentBegin: '0',
          enrollmentEnd: '0',
          consent: '',
          timezone: 'UTC',
          language: row.language,
          fields: [],
          tags: [],
        });
      });

      it('lists the fields in form order with their options, and the attendee-type tags only', async () => {
        const eventID = await newEvent();
        const other = await newEvent();
        const press = await tag(eventID, 'Press', 'attendee');
        const student = await tag(eventID, 'Student', 'attendee');
        await tag(eventID, 'AI track', 'activity');
        await tag(other, 'Other event', 'attendee');
        await tag(null, 'Company wide', 'attendee');
        const size = await field(eventID, {
          name: 'Company size',
          type: 'select',
          options: '["1-10","11-50"]',
          required: 1,
          apiKey: 'companySize',
          position: 2,
        });
        const diet = await field(eventID, { name: 'Dietary needs', type: 'textarea', position: 1 });
        await field(other, { name: 'Elsewhere', type: 'text' });
        const row = await form(eventID);
        expect(row.fields).toEqual([
          {
            feedbackID: diet.feedbackID,
            eventID,
            name: 'Dietary needs',
            description: '',
            type: 'textarea',
            options: [],
            apiKey: '',
            required: '0',
            position: '1',
          },
          {
            feedbackID: size.feedbackID,
            eventID,
            name: 'Company size',
            description: '',
            type: 'select',
            options: [{ value: '1-10' }, { value: '11-50' }],
            apiKey: 'companySize',
            required: '1',
            position: '2',
          },
        ]);
        expect(row.tags).toEqual([
          { tagID: press, name: 'Press', color: '' },
          { tagID: student, name: 'Student', color: '' },
        ]);
      });

      it('says why a form takes no registrations: closed, not-yet, ended, full; a waiting list keeps it open', async () => {
        const now = nowSeconds();
        const state = async (settings: Record<string, string | number>) => {
          const r = await form(await newEvent(settings));
          return [r.acceptsRegistrations, r.reason];
        };
        expect(await state({ enrollmentOpen: 0 })).toEqual(['0', 'closed']);
        expect(await state({ enrollmentBegin: now + DAY })).toEqual(['0', 'not-yet']);
        expect(await state({ enrollmentEnd: now - DAY })).toEqual(['0', 'ended']);
        expect(await state({ enrollmentBegin: now - DAY, enrollmentEnd: now + DAY })).toEqual(['1', '']);

        const eventID = await newEvent({ capacity: 2 });
        expect(await form(eventID)).toMatchObject({ capacity: '2', remaining: '2', acceptsRegistrations: '1' });
        await registered(eventID, { email: 'cap1@form.test' });
        expect(await form(eventID)).toMatchObject({ remaining: '1', acceptsRegistrations: '1' });
        await registered(eventID, { email: 'cap2@form.test' });
        expect(await form(eventID)).toMatchObject({ remaining: '0', acceptsRegistrations: '0', reason: 'full' });
        await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'waitingList' }, body: { value: 1 } });
        expect(await form(eventID)).toMatchObject({ remaining: '0', acceptsRegistrations: '1', reason: '' });
      });

      it('follows the public read rule: hidden 404, private needs the grant, related tokens see both', async () => {
        const eventID = await newEvent();
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 0 } });
        await c.fail('form.get', { query: { eventID } }, 404, /^404 event not found$/);
        await c.fail('form.get', { query: { eventID }, token: w.adminB }, 404);
        expect((await form(eventID, w.adminA)).eventID).toBe(eventID);

        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'accessCode' }, body: { value: 4321 } });
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'public' }, body: { value: 0 } });
        await c.fail('form.get', { query: { eventID } }, 403, /private/);
        await c.fail('form.get', { query: { eventID, grant: 'forged.grant.value' } }, 403);
        const { grant } = (await c.ok('event.checkAccessCode', { query: { eventID }, body: { accessCode: 4321 } }))[0];
        expect((await c.ok('form.get', { query: { eventID, grant } }))[0].eventID).toBe(eventID);
        expect((await form(eventID, w.adminA)).eventID).toBe(eventID);

        await c.fail('form.get', { query: { eventID: '999999' } }, 404);
        await c.fail('form.get', { query: { eventID: 'x' } }, 400, /^400 eventID must be a positive integer/);
        await c.fail('form.get', { query: {} }, 400, /^400 eventID cannot be empty$/);
      });
    });

    describe('form.edit', () => {
      it('edits every key and answers the form.get row', async () => {
        const eventID = await newEvent();
        const now = nowSeconds();
        const edit = async (key: string, value: string | number) =>
          (await c.ok('form.edit', { token: w.adminA, query: { eventID, key }, body: { value } }))[0];
        expect(await edit('enrollmentOpen', 0)).toMatchObject({ enrollmentOpen: '0', reason: 'closed' });
        expect(await edit('enrollmentOpen', 1)).toMatchObject({ enrollmentOpen: '1', reason: '' });
        expect(await edit('inviteRequired', 1)).toMatchObject({ inviteRequired: '1' });
        expect(await edit('waitingList', 1)).toMatchObject({ waitingList: '1' });
        expect(await edit('capacity', 120)).toMatchObject({ capacity: '120', remaining: '120' });
        expect(await edit('enrollmentBegin', now - DAY)).toMatchObject({ enrollmentBegin: String(now - DAY) });
        expect(await edit('enrollmentEnd', now + DAY)).toMatchObject({ enrollmentEnd: String(now + DAY) });
        const consent = await edit(
          'consent',
          '<p>I accept the <a href="https://x.example/rules">rules</a></p><script>x()</script>',
        );
        expect(consent.consent).toBe('<p>I accept the <a href="https://x.example/rules">rules</a></p>');
        // The event admin's system token may too; the stored event has every value.
        const row = (
          await c.ok('form.edit', { token: w.eventAdminSystem, query: { eventID: w.eventA.eventID, key: 'capacity' }, body: { value: 7 } })
        )[0]; // prettier-ignore
        expect(row).toMatchObject({ eventID: w.eventA.eventID, capacity: '7' });
        await c.ok('form.edit', { token: w.adminA, query: { eventID: w.eventA.eventID, key: 'capacity' }, body: { value: '' } }); // prettier-ignore
        const stored = await p.db
          .selectFrom('event')
          .selectAll()
          .where('eventID', '=', Number(eventID))
          .executeTakeFirstOrThrow();
        expect(stored).toMatchObject({
          enrollmentOpen: 1, inviteRequired: 1, waitingList: 1, capacity: 120,
          enrollmentBegin: now - DAY, enrollmentEnd: now + DAY, consent: consent.consent,
        }); // prettier-ignore
        // Empty clears capacity, dates and consent.
        for (const key of ['capacity', 'enrollmentBegin', 'enrollmentEnd', 'consent'])
          await c.ok('form.edit', { token: w.adminA, query: { eventID, key }, body: { value: '' } });
        expect(await form(eventID)).toMatchObject({ capacity: '0', remaining: '', enrollmentBegin: '0', enrollmentEnd: '0', consent: '' }); // prettier-ignore
      });

      it('refuses bad values and keys, naming them', async () => {
        const eventID = await newEvent();
        const bad = (key: string, value: string | number, message: RegExp) =>
          c.fail('form.edit', { token: w.adminA, query: { eventID, key }, body: { value } }, 400, message);
        await bad('enrollmentOpen', 2, /^400 value must be 0 or 1 \(key enrollmentOpen\)$/);
        await bad('capacity', -1, /^400 value must be an integer from 0 to 10000000 \(key capacity\)$/);
        await bad('capacity', 99999999, /key capacity/);
        await bad('enrollmentEnd', 'soon', /^400 value must be a Unix timestamp/);
        await bad('enrollmentOpen', '', /^400 value cannot be empty \(key enrollmentOpen\)$/);
        await bad('name', 'x', /^400 key name cannot be edited here; keys: \w/);
        await bad('visible', 1, /^400 key visible cannot be edited here; keys: \w/);
        await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'enrollmentEnd' }, body: { value: 2000 } });
        await bad('enrollmentBegin', 3000, /^400 enrollmentEnd cannot be before enrollmentBegin$/);
        await c.fail(
          'form.edit',
          { token: w.adminA, query: { eventID }, body: { value: 1 } },
          400,
          /^400 key cannot be empty$/,
        );
        await c.fail('form.edit', { token: w.adminA, query: { eventID: '999999', key: 'capacity' }, body: { value: 1 } }, 404); // prettier-ignore
      });

      it('is for event admins only', async () => {
        await refusesOthers('form.edit', { query: { eventID: w.eventA.eventID, key: 'capacity' }, body: { value: 3 } });
        expect(await form(w.eventA.eventID)).toMatchObject({ capacity: '0' });
      });
    });

    describe('feedback.create, feedback.edit, feedback.remove, feedback.find', () => {
      it('creates fields of every type, in order, with options as JSON or one per line', async () => {
        const eventID = await newEvent();
        const types = ['text', 'textarea', 'select', 'multiselect', 'checkbox', 'date', 'number', 'email', 'telephone', 'url']; // prettier-ignore
        const made = [];
        for (const type of types) {
          const body: Record<string, string | number> = { name: `A ${type}`, type };
          if (type === 'select') body.options = '["Small", " Large ", ""]';
          if (type === 'multiselect') body.options = 'Red\r\nGreen\n\nBlue';
          made.push(await field(eventID, body));
        }
        expect(made.map((f) => f.position)).toEqual(types.map((_, i) => String(i + 1)));
        expect(Object.keys(made[0]).sort()).toEqual([...FIELD_FIELDS, 'answers'].sort());
        expect(made[2]).toMatchObject({ type: 'select', options: [{ value: 'Small' }, { value: 'Large' }], required: '0', apiKey: '', answers: '0' }); // prettier-ignore
        expect(made[3].options).toEqual([{ value: 'Red' }, { value: 'Green' }, { value: 'Blue' }]);
        const full = await field(eventID, {
          name: '  Terms  ',
          type: 'checkbox',
          required: 1,
          apiKey: 'terms_ok',
          description: '<p>Read <b>them</b></p><script>alert(1)</script>',
          position: 0,
        });
        expect(full).toMatchObject({ eventID, name: 'Terms', required: '1', apiKey: 'terms_ok', position: '0', description: '<p>Read <b>them</b></p>' }); // prettier-ignore
        const listed = await c.ok('feedback.find', { token: w.adminA, query: { eventID } });
        expect(listed.map((f) => f.feedbackID)).toEqual([full.feedbackID, ...made.map((f) => f.feedbackID)]);
        expect(listed[0]).toEqual(full);
        expect(await c.ok('feedback.find', { token: w.adminA, query: { eventID: await newEvent() } })).toEqual([]);
      });

      it('refuses bad definitions, naming the parameter', async () => {
        const eventID = await newEvent();
        const bad = (body: Record<string, string | number>, status: number, message: RegExp) =>
          c.fail('feedback.create', { token: w.adminA, query: { eventID }, body: { name: 'F', type: 'text', ...body } }, status, message); // prettier-ignore
        await bad({ type: 'radio' }, 400, /^400 type must be one of: text, textarea, select, multiselect, checkbox, date, number, email, telephone, url$/); // prettier-ignore
        await bad({ type: '' }, 400, /^400 type cannot be empty$/);
        await bad({ name: '   ' }, 400, /^400 name cannot be blank$/);
        await bad({ type: 'select' }, 400, /^400 options cannot be empty for type select$/);
        await bad({ type: 'multiselect', options: '[]' }, 400, /^400 options cannot be empty for type multiselect$/);
        await bad(
          { type: 'select', options: '["A", 2, {"x":1}]' },
          400,
          /^400 options must be a JSON array of strings/,
        );
        await bad({ type: 'select', options: 'A\nB\nA' }, 400, /^400 options has the option "A" twice$/);
        await bad({ apiKey: '1abc' }, 400, /^400 apiKey must start with a letter/);
        await bad({ apiKey: 'a-b' }, 400, /^400 apiKey must start with a letter/);
        await bad({ required: 2 }, 400, /^400 required must be 0 or 1$/);
        await bad({ position: -1 }, 400, /^400 position must be an integer/);
        await field(eventID, { name: 'Size', type: 'text', apiKey: 'size' });
        await bad({ apiKey: 'size' }, 409, /^409 apiKey size is already used by another field of this event$/);
        await field(await newEvent(), { name: 'Size', type: 'text', apiKey: 'size' }); // per event
      });

      it('edits every key; select types keep their options', async () => {
        const eventID = await newEvent();
        const f = await field(eventID, { name: 'Size', type: 'text', apiKey: 'size' });
        await field(eventID, { name: 'Other', type: 'text', apiKey: 'other' });
        const edit = async (key: string, value: string | number) =>
          (await c.ok('feedback.edit', { token: w.adminA, query: { feedbackID: f.feedbackID, key }, body: { value } }))[0]; // prettier-ignore
        const fail = (key: string, value: string | number, status: number, message: RegExp) =>
          c.fail('feedback.edit', { token: w.adminA, query: { feedbackID: f.feedbackID, key }, body: { value } }, status, message); // prettier-ignore
        expect(await edit('name', 'Company size')).toMatchObject({ name: 'Company size' });
        expect(await edit('description', '<i>how many</i>')).toMatchObject({ description: '<i>how many</i>' });
        expect(await edit('description', '')).toMatchObject({ description: '' });
        await fail('type', 'select', 400, /^400 options cannot be empty for type select$/);
        expect(await edit('options', 'Small\nLarge')).toMatchObject({
          options: [{ value: 'Small' }, { value: 'Large' }],
        });
        expect(await edit('type', 'select')).toMatchObject({ type: 'select' });
        await fail('options', '', 400, /^400 options cannot be empty for type select$/);
        await fail('type', 'radio', 400, /^400 value must be one of: .* \(key type\)$/);
        expect(await edit('required', 1)).toMatchObject({ required: '1' });
        expect(await edit('position', 9)).toMatchObject({ position: '9' });
        await fail('apiKey', 'other', 409, /^409 apiKey other is already used/);
        expect(await edit('apiKey', 'size')).toMatchObject({ apiKey: 'size' }); // its own key again
        expect(await edit('apiKey', 'companySize')).toMatchObject({ apiKey: 'companySize' });
        expect(await edit('apiKey', '')).toMatchObject({ apiKey: '' });
        await fail('eventID', 5, 400, /^400 key eventID cannot be edited here; keys: \w/);
        await fail('name', '', 400, /^400 value cannot be empty \(key name\)$/);
        const stored = await p.db.selectFrom('feedback').selectAll().where('feedbackID', '=', Number(f.feedbackID)).executeTakeFirstOrThrow(); // prettier-ignore
        expect(stored).toMatchObject({ name: 'Company size', type: 'select', options: '["Small","Large"]', required: 1, apiKey: null, position: 9 }); // prettier-ignore
        await c.fail('feedback.edit', { token: w.adminA, query: { feedbackID: '999999', key: 'name' }, body: { value: 'x' } }, 404, /^404 feedback not found$/); // prettier-ignore
      });

      it('removes a field with its answers', async () => {
        const eventID = await newEvent();
        const f = await field(eventID, { name: 'Diet', type: 'text', apiKey: 'diet' });
        const keep = await field(eventID, { name: 'City', type: 'text', apiKey: 'city' });
        const who = await registered(eventID, { email: 'remove@form.test', feedbackContent: '{"diet":"vegan","city":"Porto"}' }); // prettier-ignore
        expect((await c.ok('feedback.find', { token: w.adminA, query: { eventID } })).map((r) => r.answers)).toEqual(['1', '1']); // prettier-ignore
        const removed = await c.ok('feedback.remove', { token: w.adminA, query: { feedbackID: f.feedbackID } });
        expect(removed).toEqual([{ ...f, answers: '1' }]);
        expect(await answersOf(eventID, who.personID)).toEqual({ [keep.feedbackID]: 'Porto' });
        expect((await c.ok('feedback.find', { token: w.adminA, query: { eventID } })).map((r) => r.feedbackID)).toEqual([keep.feedbackID]); // prettier-ignore
        await c.fail('feedback.remove', { token: w.adminA, query: { feedbackID: f.feedbackID } }, 404, /^404 feedback not found$/); // prettier-ignore
      });

      it('is for event admins only; another event’s field is not found', async () => {
        const f = await field(w.eventA.eventID, { name: 'Guarded', type: 'text' });
        await refusesOthers('feedback.create', {
          query: { eventID: w.eventA.eventID },
          body: { name: 'X', type: 'text' },
        });
        await refusesOthers('feedback.edit', {
          query: { feedbackID: f.feedbackID, key: 'name' },
          body: { value: 'Y' },
        });
        await refusesOthers('feedback.remove', { query: { feedbackID: f.feedbackID } });
        await refusesOthers('feedback.find', { query: { eventID: w.eventA.eventID } });
        expect(await c.ok('feedback.find', { token: w.eventAdminSystem, query: { eventID: w.eventA.eventID } })).toContainEqual(f); // prettier-ignore
        // Company B's admin on a field of company A's event: as if it did not exist.
        await c.fail('feedback.edit', { token: w.adminB, query: { feedbackID: f.feedbackID, key: 'name' }, body: { value: 'Y' } }, 404, /^404 feedback not found$/); // prettier-ignore
        await c.ok('feedback.remove', { token: w.adminA, query: { feedbackID: f.feedbackID } });
      });
    });

    describe('event.invite.bind, event.invite.dismiss, event.invite.find', () => {
      it('keeps an invitee list, with who registered', async () => {
        const eventID = await newEvent({ inviteRequired: 1 });
        const bound = await c.ok('event.invite.bind', { token: w.adminA, query: { eventID }, body: { email: 'Bea@Invite.test' } }); // prettier-ignore
        expect(bound).toHaveLength(1);
        expect(Object.keys(bound[0]).sort()).toEqual([...INVITE_FIELDS].sort());
        expect(bound[0]).toMatchObject({ eventID, email: 'bea@invite.test', registered: '0', personID: '0' });
        const many = await c.ok('event.invite.bind', {
          token: w.adminA,
          query: { eventID },
          body: { email: 'cid@invite.test, dan@invite.test;eva@invite.test\nbea@invite.test  cid@invite.test' },
        });
        expect(many.map((r) => r.email)).toEqual(['bea@invite.test', 'cid@invite.test', 'dan@invite.test', 'eva@invite.test']); // prettier-ignore
        expect(many[0].dateCreated).toBe(bound[0].dateCreated); // kept as it was

        const who = await registered(eventID, { email: 'cid@invite.test', invite: 'cid@invite.test' });
        const find = (query: Record<string, string | number> = {}) =>
          c.call('event.invite.find', { token: w.adminA, query: { eventID, ...query } });
        expect((await find()).data).toEqual([
          { ...many[0] },
          { ...many[1], registered: '1', personID: who.personID },
          many[2],
          many[3],
        ]);
        expect((await find({ selection: 'registered' })).data.map((r) => r.email)).toEqual(['cid@invite.test']);
        expect((await find({ selection: 'not-registered' })).data.map((r) => r.email)).toEqual(['bea@invite.test', 'dan@invite.test', 'eva@invite.test']); // prettier-ignore
        expect((await find({ query: 'EVA' })).data.map((r) => r.email)).toEqual(['eva@invite.test']);
        expect((await find({ query: '%' })).data).toEqual([]);
        const page = await find({ limit: 2, offset: 1, paginated: 1 });
        expect(page.data.map((r) => r.email)).toEqual(['cid@invite.test', 'dan@invite.test']);
        expect(page.total).toBe('4');
        await c.fail('event.invite.find', { token: w.adminA, query: { eventID, selection: 'some' } }, 400, /^400 selection must be all, registered or not-registered$/); // prettier-ignore

        const gone = await c.ok('event.invite.dismiss', {
          token: w.adminA,
          query: { eventID, email: 'DAN@invite.test' },
        });
        expect(gone).toEqual([many[2]]);
        await c.fail('event.invite.dismiss', { token: w.adminA, query: { eventID, email: 'dan@invite.test' } }, 404, /^404 invite not found$/); // prettier-ignore
        expect((await find()).data.map((r) => r.email)).toEqual(['bea@invite.test', 'cid@invite.test', 'eva@invite.test']); // prettier-ignore
        await register(eventID, { email: 'dan@invite.test', invite: 'dan@invite.test' }).then((r) => expect(r.status).toBe(403)); // prettier-ignore
      });

      it('refuses addresses that are not e-mails, naming them', async () => {
        const eventID = await newEvent();
        const bad = (email: string, message: RegExp) =>
          c.fail('event.invite.bind', { token: w.adminA, query: { eventID }, body: { email } }, 400, message);
        await bad('ok@invite.test, not-an-email', /^400 email has "not-an-email", which is not an e-mail address$/);
        await bad(' , ;', /^400 email cannot be empty$/);
        await bad('', /^400 email cannot be empty$/);
        await bad(Array.from({ length: 1001 }, (_, i) => `p${i}@invite.test`).join(','), /^400 email must list at most 1000 addresses$/); // prettier-ignore
        await c.fail('event.invite.dismiss', { token: w.adminA, query: { eventID, email: 'nope' } }, 400, /^400 email must be an e-mail address$/); // prettier-ignore
        expect(await c.ok('event.invite.find', { token: w.adminA, query: { eventID } })).toEqual([]);
      });

      it('is for event admins only', async () => {
        const eventID = w.eventA.eventID;
        await refusesOthers('event.invite.bind', { query: { eventID }, body: { email: 'x@invite.test' } });
        await refusesOthers('event.invite.dismiss', { query: { eventID, email: 'x@invite.test' } });
        await refusesOthers('event.invite.find', { query: { eventID } });
        expect(await c.ok('event.invite.find', { token: w.eventAdminSystem, query: { eventID } })).toEqual([]);
      });
    });

    describe('form.respondRegistration', () => {
      it('registers with the required fields only: the answer row, and what is stored', async () => {
        const eventID = await newEvent();
        const before = nowSeconds();
        const row = await registered(eventID, { firstName: ' Ana ', lastName: 'Lima', email: 'Ana.Lima@Form.test' });
        expect(Object.keys(row).sort()).toEqual([...ANSWER_FIELDS].sort());
        expect(row).toMatchObject({
          eventID,
          username: 'ana.lima@form.test',
          email: 'ana.lima@form.test',
          firstName: 'Ana',
          lastName: 'Lima',
          name: 'Ana Lima',
          approved: '1',
          rsvp: '0',
          private: '0',
          tokenID: '',
          duplicate: '0',
        });
        expect(Number(row.enrollmentDate)).toBeGreaterThanOrEqual(before);
        expect(row.qrCode).toMatch(/^[A-Za-z0-9_-]{24}$/);
        const [stored] = await attendeesOf(eventID);
        expect(stored).toMatchObject({
          personID: Number(row.personID), level: 1, approved: 1, rsvp: 0, private: 0, origin: 'form',
          passwordHash: '', qrCode: row.qrCode, enrollmentDate: Number(row.enrollmentDate),
        }); // prettier-ignore
        const person = await p.db.selectFrom('person').selectAll().where('personID', '=', Number(row.personID)).executeTakeFirstOrThrow(); // prettier-ignore
        expect(person).toMatchObject({ username: 'ana.lima@form.test', email: 'ana.lima@form.test', name: 'Ana Lima', passwordHash: '' }); // prettier-ignore
        // No event password was set: nobody can sign in to the event with one.
        await c.fail('person.signIn', { query: { username: 'ana.lima@form.test', eventID }, body: { password: 'anything at all' } }, 401); // prettier-ignore
      });

      it('takes every optional field: username, image, role, company, telephone, rsvp, private, tagIDs, password, login', async () => {
        const eventID = await newEvent();
        const press = await tag(eventID, 'Press', 'attendee');
        const student = await tag(eventID, 'Student', 'attendee');
        const row = await registered(eventID, {
          email: 'full@form.test',
          username: 'FullUser',
          image: 'https://cdn.example.com/ana.png',
          role: 'Editor',
          company: 'Daily News',
          telephone: '+351 912 345 678',
          rsvp: 1,
          private: 1,
          tagIDs: `${press},${student},${press}`,
          password: 'event secret 1',
          login: 1,
        });
        expect(row).toMatchObject({ username: 'fulluser', email: 'full@form.test', rsvp: '1', private: '1', approved: '1' }); // prettier-ignore
        expect(row.tokenID).toMatch(/^[A-Za-z0-9_-]{60}$/);
        const [stored] = await attendeesOf(eventID);
        // The profile is the event's own (eventPerson); the new person row holds the identity.
        expect(stored).toMatchObject({ rsvp: 1, private: 1, image: 'https://cdn.example.com/ana.png', role: 'Editor', company: 'Daily News', telephone: '+351 912 345 678' }); // prettier-ignore
        const person = await p.db.selectFrom('person').selectAll().where('personID', '=', Number(row.personID)).executeTakeFirstOrThrow(); // prettier-ignore
        expect(person).toMatchObject({ username: 'fulluser', email: 'full@form.test', passwordHash: '' });
        expect(stored.passwordHash).toMatch(/^scrypt\$/);
        const tags = await p.db.selectFrom('eventPersonTag').select('tagID').where('personID', '=', Number(row.personID)).orderBy('tagID').execute(); // prettier-ignore
        expect(tags.map((t) => String(t.tagID))).toEqual([press, student]);

        // login=1: an event-scope token of the new attendee.
        const viaToken = (await c.ok('event.get', { token: row.tokenID, query: { eventID } }))[0];
        expect(viaToken).toMatchObject({ eventID, personID: row.personID, approved: '1', level: '1' });
        await c.fail('feedback.find', { token: row.tokenID, query: { eventID } }, 403); // a User of this event
        await c.fail('feedback.find', { token: row.tokenID, query: { eventID: w.eventA.eventID } }, 404); // only this event
        // password: the event-scope password of person.signIn with eventID.
        const signed = (await c.ok('person.signIn', { query: { username: 'fulluser', eventID }, body: { password: 'event secret 1' } }))[0]; // prettier-ignore
        expect(signed).toMatchObject({ personID: row.personID, scope: 'event', targetID: eventID });
      });

      it('reads feedbackContent as a list of {feedbackID, value} and as an object keyed by API Field key', async () => {
        const eventID = await newEvent();
        const size = await field(eventID, { name: 'Company size', type: 'select', options: '["1-10","11-50"]', required: 1, apiKey: 'companySize' }); // prettier-ignore
        const diet = await field(eventID, { name: 'Diet', type: 'text', apiKey: 'diet' });
        const news = await field(eventID, { name: 'News', type: 'checkbox' }); // no API Field key

        const listed = await registered(eventID, {
          email: 'list@form.test',
          feedbackContent: JSON.stringify([
            { feedbackID: Number(size.feedbackID), value: '11-50' },
            { feedbackID: diet.feedbackID, value: ' vegan ' },
            { feedbackID: news.feedbackID, value: true },
          ]),
        });
        expect(await answersOf(eventID, listed.personID)).toEqual({
          [size.feedbackID]: '11-50',
          [diet.feedbackID]: 'vegan',
          [news.feedbackID]: '1',
        });
        const keyed = await registered(eventID, { email: 'keyed@form.test', feedbackContent: '{"companySize":"1-10","diet":""}' }); // prettier-ignore
        expect(await answersOf(eventID, keyed.personID)).toEqual({ [size.feedbackID]: '1-10' });

        const fail = (feedbackContent: string, message: RegExp) =>
          register(eventID, { email: 'bad@form.test', feedbackContent }).then((r) => {
            expect(r.text).toMatch(message);
            expect(r.status).toBe(400);
          });
        const label = `feedbackContent field ${size.feedbackID} \\(Company size\\)`;
        await fail('[]', new RegExp(`^400 ${label} cannot be empty$`));
        await fail('{}', new RegExp(`^400 ${label} cannot be empty$`));
        await fail('{"companySize":"  "}', new RegExp(`^400 ${label} cannot be empty$`));
        await fail('{"companySize":null}', new RegExp(`^400 ${label} cannot be empty$`));
        await fail('{"companySize":"500"}', new RegExp(`^400 ${label} must be one of: 1-10, 11-50$`));
        await fail(
          '{"companySize":"1-10","news":1}',
          /^400 feedbackContent key news is not an API Field key of this form$/,
        );
        await fail(
          `[{"feedbackID":999999,"value":"x"}]`,
          /^400 feedbackContent field 999999 is not a field of this form$/,
        );
        await fail(`[{"feedbackID":"abc","value":"x"}]`, /^400 feedbackContent field abc is not a field of this form$/);
        await fail(
          JSON.stringify([
            { feedbackID: size.feedbackID, value: '1-10' },
            { feedbackID: size.feedbackID, value: '11-50' },
          ]),
          new RegExp(`^400 ${label} is given twice$`),
        );
        for (const malformed of ['nope', '"text"', '12', 'null', '[1]', '[{"value":"x"}]'])
          await fail(malformed, /^400 feedbackContent must be a JSON list of \{"feedbackID", "value"\} or an object keyed by API Field key$/); // prettier-ignore
        await fail('', /^400 feedbackContent cannot be empty$/);
        // A field of another event is not a field of this form.
        const foreign = await field(await newEvent(), { name: 'Foreign', type: 'text' });
        await fail(`[{"feedbackID":${foreign.feedbackID},"value":"x"},{"feedbackID":${size.feedbackID},"value":"1-10"}]`, /is not a field of this form/); // prettier-ignore
        expect((await attendeesOf(eventID)).length).toBe(2);
        // "[]" is allowed when no field is required.
        await c.ok('feedback.edit', { token: w.adminA, query: { feedbackID: size.feedbackID, key: 'required' }, body: { value: 0 } }); // prettier-ignore
        const none = await registered(eventID, { email: 'none@form.test', feedbackContent: '[]' });
        expect(await answersOf(eventID, none.personID)).toEqual({});
      });

      it('checks every answer against its field type', async () => {
        const eventID = await newEvent();
        const f: Record<string, Record<string, string>> = {};
        const defs: [string, Record<string, string | number>][] = [
          ['text', {}], ['textarea', {}], ['select', { options: '["A","B"]' }], ['multiselect', { options: '["X","Y","Z, Inc"]' }],
          ['checkbox', {}], ['date', {}], ['number', {}], ['email', {}], ['telephone', {}], ['url', {}],
        ]; // prettier-ignore
        for (const [type, extra] of defs) f[type] = await field(eventID, { name: `My ${type}`, type, apiKey: type, ...extra }); // prettier-ignore
        const good = await registered(eventID, {
          email: 'types@form.test',
          feedbackContent: JSON.stringify({
            text: '  hello ', textarea: 'l'.repeat(5000), select: 'B', multiselect: ['Z, Inc', 'X', 'X'], checkbox: false,
            date: '2032-02-29', number: -3.5, email: 'Ana@Example.COM', telephone: '+351 (21) 123-4567', url: 'https://ana.example/x?y=1',
          }), // prettier-ignore
        });
        expect(await answersOf(eventID, good.personID)).toEqual({
          [f.text.feedbackID]: 'hello', [f.textarea.feedbackID]: 'l'.repeat(5000), [f.select.feedbackID]: 'B',
          [f.multiselect.feedbackID]: '["Z, Inc","X"]', [f.checkbox.feedbackID]: '0', [f.date.feedbackID]: '2032-02-29',
          [f.number.feedbackID]: '-3.5', [f.email.feedbackID]: 'ana@example.com', [f.telephone.feedbackID]: '+351 (21) 123-4567',
          [f.url.feedbackID]: 'https://ana.example/x?y=1',
        }); // prettier-ignore
        // The other forms of a multiselect answer: a comma list, a JSON array text, one option.
        const multi = async (email: string, value: string, stored: string) => {
          const r = await registered(eventID, { email, feedbackContent: JSON.stringify({ multiselect: value }) });
          expect((await answersOf(eventID, r.personID))[f.multiselect.feedbackID]).toBe(stored);
        };
        await multi('m1@form.test', 'Y, X', '["Y","X"]');
        await multi('m2@form.test', '["Y"]', '["Y"]');
        await multi('m3@form.test', 'Z, Inc', '["Z, Inc"]');

        const bad: [string, unknown, string][] = [
          ['text', 'x'.repeat(1001), 'must be at most 1000 characters'],
          ['text', ['a'], 'must be a single value'],
          ['text', { a: 1 }, 'must be a value, not an object'],
          ['textarea', 'x'.repeat(10001), 'must be at most 10000 characters'],
          ['select', 'C', 'must be one of: A, B'],
          ['multiselect', ['X', 'Q'], 'has "Q", which is not one of its options'],
          ['multiselect', 'X,Q', 'has "Q", which is not one of its options'],
          ['checkbox', 'yes', 'must be 0 or 1'],
          ['date', '2031-02-29', 'must be a date as YYYY-MM-DD'],
          ['date', '28/02/2031', 'must be a date as YYYY-MM-DD'],
          ['number', '12abc', 'must be a number'],
          ['email', 'not-an-email', 'must be an e-mail address'],
          ['telephone', 'call me', 'must be a telephone number'],
          ['url', 'javascript:alert(1)', 'must be an http or https URL'],
        ];
        for (const [type, value, message] of bad) {
          const r = await register(eventID, { email: 'typo@form.test', feedbackContent: JSON.stringify({ [type]: value }) }); // prettier-ignore
          expect(r.text).toBe(`400 feedbackContent field ${f[type].feedbackID} (My ${type}) ${message}`);
        }
        // A required checkbox must be checked.
        await c.ok('feedback.edit', { token: w.adminA, query: { feedbackID: f.checkbox.feedbackID, key: 'required' }, body: { value: 1 } }); // prettier-ignore
        const unchecked = await register(eventID, { email: 'typo@form.test', feedbackContent: '{"checkbox":0}' });
        expect(unchecked.text).toBe(
          `400 feedbackContent field ${f.checkbox.feedbackID} (My checkbox) must be 1 (checked)`,
        );
        expect((await attendeesOf(eventID)).length).toBe(4);
      });

      it('registers invitees only when the invite requirement is on', async () => {
        const eventID = await newEvent({ inviteRequired: 1 });
        await c.ok('event.invite.bind', { token: w.adminA, query: { eventID }, body: { email: 'guest@invite.test' } });
        const fail = (body: Record<string, string>, message: RegExp) =>
          register(eventID, body).then((r) => expect(r.text).toMatch(message));
        await fail({ email: 'guest@invite.test' }, /^403 invite is required: this event registers invitees only$/);
        await fail({ email: 'crasher@invite.test', invite: 'crasher@invite.test' }, /^403 invite is not on the invitee list of this event$/); // prettier-ignore
        await fail({ email: 'crasher@invite.test', invite: 'guest@invite.test' }, /^403 invite must be the invited e-mail address being registered$/); // prettier-ignore
        await fail({ email: 'guest@invite.test', invite: 'not an email' }, /^400 invite must be an e-mail address$/);
        expect(await attendeesOf(eventID)).toEqual([]);
        const row = await registered(eventID, { email: 'Guest@Invite.test', invite: 'GUEST@invite.test' });
        expect(row).toMatchObject({ email: 'guest@invite.test', approved: '1' });
        // With the requirement off, invite is ignored.
        const open = await newEvent();
        expect(await registered(open, { email: 'anyone@invite.test', invite: 'other@invite.test' })).toMatchObject({ approved: '1' }); // prettier-ignore
      });

      it('takes attendee-type tags of this event only', async () => {
        const eventID = await newEvent();
        const other = await newEvent();
        const mine = await tag(eventID, 'VIP', 'attendee');
        const track = await tag(eventID, 'Track', 'activity');
        const foreign = await tag(other, 'VIP', 'attendee');
        const companyWide = await tag(null, 'Everyone', 'attendee');
        for (const bad of [track, foreign, companyWide, '999999'])
          await register(eventID, { email: 'tags@form.test', tagIDs: `${mine},${bad}` }).then((r) =>
            expect(r.text).toBe(`400 tagIDs ${bad} is not an attendee tag of this event`),
          );
        await register(eventID, { email: 'tags@form.test', tagIDs: 'a,b' }).then((r) =>
          expect(r.text).toMatch(/^400 tagIDs must be positive integers separated by commas$/),
        );
        // Bounded: each id is a bound value of one query (thousands of them were a 500 on either store).
        const many = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
        for (const tagIDs of [many(101), many(40_000)])
          await register(eventID, { email: 'tags@form.test', tagIDs }).then((r) =>
            expect(r.text).toBe('400 tagIDs must list at most 100 ids'),
          );
        expect(await attendeesOf(eventID)).toEqual([]);
        const row = await registered(eventID, { email: 'tags@form.test', tagIDs: mine });
        const tags = await p.db.selectFrom('eventPersonTag').selectAll().where('personID', '=', Number(row.personID)).execute(); // prettier-ignore
        expect(tags).toEqual([{ eventID: Number(eventID), personID: Number(row.personID), tagID: Number(mine) }]);
      });

      it('refuses a closed form, outside the window, and a full event; a waiting list registers with approved 0', async () => {
        const now = nowSeconds();
        const status = async (settings: Record<string, string | number>) =>
          (await register(await newEvent(settings), { email: 'window@form.test' })).text;
        expect(await status({ enrollmentOpen: 0 })).toBe('403 registration is closed');
        expect(await status({ enrollmentBegin: now + DAY })).toBe('403 registration has not opened yet');
        expect(await status({ enrollmentEnd: now - 60 })).toBe('403 registration has ended');
        expect(await status({ enrollmentBegin: now - DAY, enrollmentEnd: now + DAY })).toMatch(/^\{/);

        const full = await newEvent({ capacity: 1 });
        expect(await registered(full, { email: 'first@form.test' })).toMatchObject({ approved: '1' });
        expect((await register(full, { email: 'second@form.test' })).text).toBe('409 registration is full');
        // A double submit of the one registered is still answered as registered (its state to an admin).
        expect(await registered(full, { email: 'first@form.test' })).toMatchObject({ approved: '', duplicate: '1' });
        expect(await registered(full, { email: 'first@form.test' }, w.adminA)).toMatchObject({ approved: '1', duplicate: '1' }); // prettier-ignore
        await c.ok('form.edit', { token: w.adminA, query: { eventID: full, key: 'waitingList' }, body: { value: 1 } });
        expect(await registered(full, { email: 'second@form.test' })).toMatchObject({ approved: '0', duplicate: '0' });
        expect((await attendeesOf(full)).map((r) => r.approved).sort()).toEqual([0, 1]);
      });

      it('answers a double submit as already registered, changing nothing and echoing only what was sent', async () => {
        const eventID = await newEvent();
        const diet = await field(eventID, { name: 'Diet', type: 'text', apiKey: 'diet' });
        const first = await registered(eventID, { email: 'twice@form.test', feedbackContent: '{"diet":"vegan"}', password: 'first password', login: 1 }); // prettier-ignore
        const again = await registered(eventID, {
          email: 'TWICE@form.test',
          firstName: 'Someone',
          lastName: 'Else',
          feedbackContent: '{"diet":"none"}',
          rsvp: 1,
          password: 'second password',
        });
        // To anyone: the sent fields and the event, nothing of the registration (not even whose it is).
        expect(again).toEqual({
          ...Object.fromEntries(Object.entries(first).map(([k, v]) => [k, Array.isArray(v) ? [] : ''])),
          ...{ username: 'twice@form.test', email: 'twice@form.test', eventID },
          ...{ firstName: 'Someone', lastName: 'Else', name: 'Someone Else', personName: 'Someone Else' },
          ...{ tokenID: '', duplicate: '1', emailed: '0' },
        });
        // To the person (the first submit's token): the sent fields, the ids and the registration's state;
        // nothing else of the stored record.
        const own = await registered(eventID, { email: 'twice@form.test', firstName: 'Someone', lastName: 'Else' }, first.tokenID); // prettier-ignore
        expect(own).toEqual({
          ...first,
          firstName: 'Someone',
          lastName: 'Else',
          name: 'Someone Else',
          personName: 'Someone Else',
          level: '0',
          origin: '',
          updatedDate: '0',
          downloaded: '0',
          qrCode: '',
          tokenID: '',
          duplicate: '1',
          // The first registration queued the confirmation; the double submit queues nothing.
          emailed: '0',
        });
        expect(await answersOf(eventID, first.personID)).toEqual({ [diet.feedbackID]: 'vegan' });
        const stored = await attendeesOf(eventID);
        expect(stored).toHaveLength(1);
        expect(stored[0]).toMatchObject({ rsvp: 0, qrCode: first.qrCode, name: first.name });
        // No token for a double submit, even with the right event password: person.signIn is the way.
        for (const password of ['second password', 'first password'])
          expect(await registered(eventID, { email: 'twice@form.test', password, login: 1 })).toMatchObject({
            personID: '',
            duplicate: '1',
            tokenID: '',
            qrCode: '',
          });
        const signed = await c.ok('person.signIn', {
          query: { username: 'twice@form.test', eventID },
          body: { password: 'first password' },
        });
        expect(signed[0].personID).toBe(first.personID);
      });

      it('enrolls an existing person with what was sent, touching and echoing nothing of theirs; a taken username is refused', async () => {
        const eventID = await newEvent();
        const before = await p.db.selectFrom('person').selectAll().where('personID', '=', w.attendeeID).executeTakeFirstOrThrow(); // prettier-ignore
        const row = await registered(eventID, { email: 'attendee@podium.test', firstName: 'Mallory', lastName: 'X', company: 'Evil', password: 'mallory password', login: 1 }); // prettier-ignore
        expect(row).toMatchObject({ personID: String(w.attendeeID), name: 'Mallory X', duplicate: '0', tokenID: '', qrCode: '' }); // prettier-ignore
        expect(await p.db.selectFrom('person').selectAll().where('personID', '=', w.attendeeID).executeTakeFirstOrThrow()).toEqual(before); // prettier-ignore
        const [enrolled] = await attendeesOf(eventID);
        expect(enrolled).toMatchObject({ name: 'Mallory X', company: 'Evil', passwordHash: '' });
        // Already in event A (by the world): a double submit there, answered to nobody in particular.
        expect(await registered(w.eventA.eventID, { email: 'attendee@podium.test' })).toMatchObject({ personID: '', duplicate: '1' }); // prettier-ignore

        // A username that is someone else's login is not theirs to take.
        expect((await register(eventID, { email: 'other@form.test', username: 'admin-a@podium.test' })).text).toBe('409 username is already taken'); // prettier-ignore
        await p.person('bob', 'bob password'); // a login without an e-mail
        expect((await register(eventID, { email: 'bob@form.test', username: 'bob' })).text).toBe('409 username is already taken'); // prettier-ignore
        // One e-mail, one attendee, whatever username a second submit names.
        const named = await registered(eventID, { email: 'named@form.test', username: 'named1' });
        expect(await registered(eventID, { email: 'named@form.test', username: 'named2' }, w.adminA)).toMatchObject({ personID: named.personID, duplicate: '1' }); // prettier-ignore
        expect(await registered(eventID, { email: 'named@form.test', username: 'named1' }, w.adminA)).toMatchObject({ personID: named.personID, duplicate: '1' }); // prettier-ignore
        expect((await attendeesOf(eventID)).length).toBe(2);
      });

      // Security finding 11: a repeat's ids and state told anyone who knew an address that it is registered,
      // as whom and how. Now only the person and the event's admins see them; the change still names them.
      it("shows a repeat's ids and state only to the person and the event's admins; the change names the person", async () => {
        const eventID = w.eventA.eventID;
        const attendeeID = String(w.attendeeID);
        const [stored] = await c.ok('event.person.get', { token: w.adminA, query: { eventID, personID: attendeeID } });
        const state = ['personID', 'enrollmentID', 'approved', 'rsvp', 'private', 'enrollmentDate'] as const;
        const shown = Object.fromEntries(state.map((k) => [k, stored[k]]));
        const blank = Object.fromEntries(state.map((k) => [k, '']));
        const repeat = { email: 'attendee@podium.test', firstName: 'Someone', lastName: 'Else' };
        const changes = () =>
          p.db.selectFrom('change').select(['ids']).where('eventID', '=', Number(eventID))
            .where('operation', '=', 'form.respondRegistration').orderBy('changeID', 'desc').limit(1).execute(); // prettier-ignore
        // prettier-ignore
        const cases: [who: string, token: string | undefined, sees: boolean][] = [
          ['nobody (no token)', undefined, false],
          ['a stale token (ignored)', 'x'.repeat(60), false],
          ['the person, event-scope token', w.attendee, true],
          ['the person, system token', w.attendeeSystem, true],
          ["the event's company admin", w.adminA, true],
          ['an event admin (system token)', w.eventAdminSystem, true],
          ['an operator', w.operator, true],
          ['an event admin with an event-scope token (a User there, spec §5.3)', w.eventAdminEventScope, false],
          ['staff of the event', w.staff, false],
          ['an external person of the company', w.externalA, false],
          ['an admin of another company', w.adminB, false],
        ];
        for (const [who, token, sees] of cases) {
          const row = await registered(eventID, repeat, token);
          expect(row, who).toMatchObject({ ...(sees ? shown : blank), duplicate: '1', eventID, name: 'Someone Else' });
          // Whoever asked, the change log (webhooks, push) has the real person.
          expect(JSON.parse((await changes())[0].ids).personID, who).toBe(Number(attendeeID));
        }
        // An anonymous repeat shows nothing but what was sent and the event.
        const anonymous = await registered(eventID, repeat);
        const echoed = ['username', 'email', 'firstName', 'lastName', 'name', 'personName', 'headline', 'eventID', 'duplicate', 'emailed']; // prettier-ignore
        const rest = Object.entries(anonymous).filter(([k]) => !echoed.includes(k));
        expect(rest.filter(([, v]) => v !== '' && !(Array.isArray(v) && v.length === 0))).toEqual([]);
        // A first registration names its person, to anyone, as before.
        const fresh = await registered(await newEvent(), { email: 'fresh-oracle@form.test' });
        expect(fresh).toMatchObject({ personID: expect.stringMatching(/^\d+$/), duplicate: '0', approved: '1' });
      });

      it('registers again someone removed from the event, without their old answers and tags', async () => {
        const eventID = await newEvent();
        const diet = await field(eventID, { name: 'Diet', type: 'text', apiKey: 'diet' });
        const city = await field(eventID, { name: 'City', type: 'text', apiKey: 'city' });
        const vip = await tag(eventID, 'VIP', 'attendee');
        const first = await registered(eventID, { email: 'back@form.test', feedbackContent: '{"diet":"vegan","city":"Porto"}', tagIDs: vip }); // prettier-ignore
        await p.db.deleteFrom('eventPerson').where('eventID', '=', Number(eventID)).execute(); // removed by an organizer
        const again = await registered(eventID, { email: 'back@form.test', feedbackContent: '{"city":"Faro"}' });
        expect(again).toMatchObject({ personID: first.personID, duplicate: '0', approved: '1' });
        expect(again.qrCode).not.toBe(first.qrCode);
        expect(await answersOf(eventID, first.personID)).toEqual({ [city.feedbackID]: 'Faro' });
        expect(diet.feedbackID).not.toBe(city.feedbackID);
        expect(await p.db.selectFrom('eventPersonTag').selectAll().where('eventID', '=', Number(eventID)).execute()).toEqual([]); // prettier-ignore
      });

      it('asks for consent when the form has a consent text', async () => {
        const eventID = await newEvent({ consent: 'I agree to be contacted.' });
        expect((await register(eventID, { email: 'consent@form.test' })).text).toBe('400 consent must be 1: this form asks to accept its consent text'); // prettier-ignore
        expect((await register(eventID, { email: 'consent@form.test', consent: 0 })).status).toBe(400);
        expect((await register(eventID, { email: 'consent@form.test', consent: 2 })).text).toBe(
          '400 consent must be 0 or 1',
        );
        expect(await registered(eventID, { email: 'consent@form.test', consent: 1 })).toMatchObject({ approved: '1' });
      });

      it('follows the public read rule: hidden or unknown 404, private needs the grant', async () => {
        const eventID = await newEvent();
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 0 } });
        expect((await register(eventID, { email: 'hidden@form.test' })).text).toBe('404 event not found');
        expect((await register('999999', { email: 'hidden@form.test' })).text).toBe('404 event not found');
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'accessCode' }, body: { value: 1234 } });
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'public' }, body: { value: 0 } });
        expect((await register(eventID, { email: 'private@form.test' })).text).toMatch(/^403 this event is private/);
        expect((await register(eventID, { email: 'private@form.test' }, { grant: 'x.y.z' })).status).toBe(403);
        const { grant } = (await c.ok('event.checkAccessCode', { query: { eventID }, body: { accessCode: 1234 } }))[0];
        expect((await register(eventID, { email: 'private@form.test' }, { grant })).status).toBe(200);
        // A template takes no registrations.
        await p.db.updateTable('event').set({ isTemplate: 1, public: 1 }).where('eventID', '=', Number(eventID)).execute(); // prettier-ignore
        expect((await register(eventID, { email: 'template@form.test' })).text).toBe('404 event not found');
      });

      it('refuses missing and invalid parameters, naming them', async () => {
        const eventID = await newEvent();
        const fail = (body: Record<string, string | number>, message: string) =>
          register(eventID, { email: 'params@form.test', ...body }).then((r) => expect(r.text).toBe(`400 ${message}`));
        await fail({ firstName: '' }, 'firstName cannot be empty');
        await fail({ lastName: '   ' }, 'lastName cannot be blank');
        await fail({ email: '' }, 'email cannot be empty');
        await fail({ email: 'nope' }, 'email must be an e-mail address');
        await fail({ image: 'ftp://x' }, 'image must be an http or https URL');
        await fail({ password: 'short' }, 'password must be at least 8 characters');
        await fail({ rsvp: 'yes' }, 'rsvp must be 0 or 1');
        await fail({ login: 2 }, 'login must be 0 or 1');
        await fail({ private: -1 }, 'private must be 0 or 1');
        await fail({ username: 'has space' }, 'username cannot contain spaces');
        await fail({ firstName: 'x'.repeat(101) }, 'firstName must be at most 100 characters');
        expect((await c.call('form.respondRegistration', { body: { firstName: 'A', lastName: 'B', email: 'a@b.io', feedbackContent: '[]' } })).text).toBe('400 eventID cannot be empty'); // prettier-ignore
        expect((await c.call('form.respondRegistration', { query: { eventID }, method: 'GET' })).status).toBe(405);
        expect(await attendeesOf(eventID)).toEqual([]);
      });

      it('stores nothing in sandbox mode, and ignores a stale token', async () => {
        const eventID = await newEvent({ capacity: 3 });
        const tried = await register(eventID, { email: 'sandbox@form.test', login: 1 }, { sandbox: '1' });
        expect(tried.data[0]).toMatchObject({ approved: '1', duplicate: '0' });
        expect(await attendeesOf(eventID)).toEqual([]);
        expect(await p.db.selectFrom('person').select('personID').where('email', '=', 'sandbox@form.test').execute()).toEqual([]); // prettier-ignore
        await c.fail('feedback.find', { token: tried.data[0].tokenID as string, query: { eventID } }, 401);
        const r = await c.call('form.respondRegistration', {
          query: { eventID },
          token: 'x'.repeat(60),
          body: { firstName: 'A', lastName: 'B', email: 'stale@form.test', feedbackContent: '[]' },
        });
        expect(r.status).toBe(200);
      });
    });
  });
});
