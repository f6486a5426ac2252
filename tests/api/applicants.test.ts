import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';

// Applicants (issue 16, docs/api/applicants.md): events that need approval take applications through
// the public form ('event.applicant.bind', and form.respondRegistration when approvalRequired=1) and
// admins import them from CSV; 'event.applicant.approve' makes the attendee under the registration's
// rules (capacity with guests, waiting list, general activities, the confirmation e-mail),
// 'event.applicant.dismiss' refuses, 'event.applicant.operate' edits a pending one,
// 'event.applicant.find' and 'event.applicant.get' read them. Both stores, both call styles.

const FIELDS = ['eventID', 'personID', 'name', 'firstName', 'lastName', 'username', 'email', 'role', 'company', 'telephone', 'origin', 'approved', 'date', 'approvedDate']; // prettier-ignore

describe.each(STORES)('applicants on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let importDir: string;
  let seq = 0;
  beforeAll(async () => {
    importDir = mkdtempSync(join(tmpdir(), 'podium-applicants-'));
    p = await startTestPlatform(kind, { IMPORT_DIR: importDir });
    w = await world(p);
  });
  afterAll(() => p?.close());

  describe.each(STYLES)('%s', (style) => {
    let c: Client;
    beforeAll(() => {
      c = client(p, style);
    });

    /** A visible event of company A taking registrations; approvalRequired unless `approval` is 0. */
    async function newEvent(settings: Record<string, number> = {}) {
      seq++;
      const [{ eventID }] = await c.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: `Apply ${seq}`, nickname: `apply-${style}-${seq}` },
      });
      await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
      for (const [key, value] of Object.entries({ approvalRequired: 1, ...settings }))
        await c.ok('form.edit', { token: w.adminA, query: { eventID, key }, body: { value } });
      return eventID;
    }
    const register = (eventID: string, email: string, more: Record<string, string | number> = {}) =>
      c.call('form.respondRegistration', {
        query: { eventID },
        body: { firstName: 'Ana', lastName: 'Lima', email, feedbackContent: '[]', ...more },
      });
    const apply = (eventID: string, email: string, more: Record<string, string> = {}) =>
      c.call('event.applicant.bind', {
        query: { eventID },
        body: { name: 'Rui  Costa', username: email, email, password: 'long enough pw', ...more },
      });
    const approve = (eventID: string, personID: string, token = w.adminA) =>
      c.call('event.applicant.approve', { token, query: { eventID, personID } });
    const attendee = async (eventID: string, personID: string) =>
      p.db
        .selectFrom('eventPerson')
        .select(['approved', 'origin', 'email', 'firstName', 'language'])
        .where('eventID', '=', Number(eventID))
        .where('personID', '=', Number(personID))
        .executeTakeFirst();
    const changes = async (operation: string, eventID: string) =>
      (
        await p.db
          .selectFrom('change')
          .select(['objectID'])
          .where('operation', '=', operation)
          .where('eventID', '=', Number(eventID))
          .orderBy('changeID')
          .execute()
      ).map((r) => Number(r.objectID));

    it('approvalRequired is a form setting that form.get shows', async () => {
      const eventID = await newEvent();
      expect((await c.ok('form.get', { query: { eventID } }))[0]).toMatchObject({ approvalRequired: '1' });
      const off = await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'approvalRequired' }, body: { value: 0 } }); // prettier-ignore
      expect(off[0].approvalRequired).toBe('0');
      await c.fail('form.edit', { token: w.adminA, query: { eventID, key: 'approvalRequired' }, body: { value: 2 } }, 400, /^400 value must be 0 or 1 \(key approvalRequired\)$/); // prettier-ignore
    });

    it('with approval required, the registration form records an application (approved -1), not an attendee', async () => {
      const eventID = await newEvent();
      const r = await register(eventID, 'ana@apply.test', { role: 'Chef', login: 1, password: 'long enough pw' });
      expect(r.status, r.text).toBe(200);
      expect(r.data[0]).toMatchObject({ approved: '-1', duplicate: '0', tokenID: '', email: 'ana@apply.test', role: 'Chef', qrCode: '' }); // prettier-ignore
      const personID = r.data[0].personID as string;
      expect(await attendee(eventID, personID)).toBeUndefined();
      const [app] = await c.ok('event.applicant.get', { token: w.adminA, query: { eventID, personID } });
      expect(Object.keys(app).sort()).toEqual([...FIELDS].sort());
      expect(app).toMatchObject({ name: 'Ana Lima', role: 'Chef', approved: '0', origin: 'form', approvedDate: '0' });
      // Sent again: the pending application is answered, nothing new is written. Without a token, not
      // whose nor which (an address alone tells nothing): its ids and state are blank.
      const again = await register(eventID, 'ana@apply.test', { role: 'Other' });
      expect(again.data[0]).toMatchObject({ approved: '', duplicate: '1', personID: '', role: 'Other' });
      expect((await c.ok('event.applicant.get', { token: w.adminA, query: { eventID, personID } }))[0].role).toBe('Chef'); // prettier-ignore
      // Its change (and webhook type) is an applicant bound, not an attendee registered: the repeat's too,
      // naming the real person though its answer does not.
      expect(await changes('event.applicant.bind', eventID)).toEqual([Number(personID), Number(personID)]);
      expect(await changes('form.respondRegistration', eventID)).toEqual([]);
    });

    it('without approval required, the form registers as before', async () => {
      const eventID = await newEvent({ approvalRequired: 0 });
      const r = await register(eventID, 'direct@apply.test');
      expect(r.data[0]).toMatchObject({ approved: '1', duplicate: '0' });
      expect((await c.ok('event.applicant.find', { token: w.adminA, query: { eventID } })).length).toBe(0);
    });

    it('event.applicant.bind (public form) records an application with the profile sent', async () => {
      const eventID = await newEvent({ approvalRequired: 0 });
      const r = await apply(eventID, 'Rui@Apply.test', { role: 'CTO', company: 'Acme', telephone: '+351 1' });
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.data[0]).sort()).toEqual([...FIELDS].sort());
      expect(r.data[0]).toMatchObject({ name: 'Rui Costa', firstName: 'Rui', lastName: 'Costa', email: 'rui@apply.test', username: 'rui@apply.test', role: 'CTO', company: 'Acme', telephone: '+351 1', approved: '0', origin: 'event.applicant.bind' }); // prettier-ignore
      expect(await attendee(eventID, r.data[0].personID as string)).toBeUndefined();
      // The same person again: nothing stored is shown, the application stays as it was.
      const again = await apply(eventID, 'rui@apply.test', { role: 'Intern' });
      expect(again.data[0]).toMatchObject({ personID: r.data[0].personID, role: 'Intern' });
      const [stored] = await c.ok('event.applicant.get', { token: w.adminA, query: { eventID, personID: r.data[0].personID as string } }); // prettier-ignore
      expect(stored.role).toBe('CTO');
    });

    it.each([
      ['no password', { password: '' }, '400 one of these is required: eventID + name + username + email + password; eventID + path'], // prettier-ignore
      ['a short password', { password: 'short' }, '400 password must be at least 8 characters'],
      ['a bad e-mail', { email: 'nope' }, '400 email must be an e-mail address'],
    ])('the public form refuses %s', async (_label, more, text) => {
      const eventID = await newEvent();
      const r = await apply(eventID, `bad-${seq}@apply.test`, more);
      expect(r.text).toBe(text);
    });

    it('the public form keeps the registration rules: a closed form, a hidden event, an attendee already', async () => {
      const eventID = await newEvent({ enrollmentOpen: 0 });
      expect((await apply(eventID, 'closed@apply.test')).text).toBe('403 registration is closed');
      const hidden = await newEvent();
      await c.ok('event.edit', { token: w.adminA, query: { eventID: hidden, key: 'visible' }, body: { value: 0 } });
      expect((await apply(hidden, 'hidden@apply.test')).text).toBe('404 event not found');
      const open = await newEvent({ approvalRequired: 0 });
      await register(open, 'member@apply.test');
      expect((await apply(open, 'member@apply.test')).text).toBe('409 the person is already registered in this event');
    });

    it('approve makes the attendee as a registration would: profile, answers, general activity, confirmation e-mail', async () => {
      const eventID = await newEvent();
      const [field] = await c.ok('feedback.create', { token: w.adminA, query: { eventID }, body: { name: 'Diet', type: 'text' } }); // prettier-ignore
      const [act] = await c.ok('activity.create', { token: w.adminA, query: { eventID }, body: { name: 'Keynote' } });
      await c.ok('activity.edit', { token: w.adminA, query: { activityID: act.activityID, key: 'general' }, body: { value: 1 } }); // prettier-ignore
      const email = `approved-${style}@apply.test`;
      const feedbackContent = JSON.stringify([{ feedbackID: field.feedbackID, value: 'vegan' }]);
      // Through a Portuguese form: the attendee it becomes speaks Portuguese (form.respondRegistration's language).
      const r = await register(eventID, email, { feedbackContent, password: 'long enough pw', language: 'pt' });
      const personID = r.data[0].personID as string;
      const mailsBefore = p.mails().filter((m) => m.includes(email)).length;
      const ok = await approve(eventID, personID);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.data[0]).toMatchObject({ personID, approved: '1' });
      expect(Number(ok.data[0].approvedDate)).toBeGreaterThan(0);
      expect(await attendee(eventID, personID)).toMatchObject({ approved: 1, origin: 'form', email, firstName: 'Ana', language: 'pt' }); // prettier-ignore
      const [full] = await c.ok('event.person.get', { token: w.adminA, query: { eventID, personID } });
      expect(JSON.stringify(full)).toContain('vegan');
      const seats = await c.ok('activity.person.find', { token: w.adminA, query: { activityID: act.activityID, selection: 'all' } }); // prettier-ignore
      expect(seats.map((s) => s.personID)).toEqual([personID]);
      // The event password sent with the application signs the attendee in.
      expect(await p.signIn(email, 'long enough pw', Number(eventID))).toMatch(/.{20}/);
      await p.mailsUntil(1);
      const until = Date.now() + 10_000;
      while (p.mails().filter((m) => m.includes(email)).length === mailsBefore && Date.now() < until)
        await new Promise((res) => setTimeout(res, 20));
      expect(p.mails().filter((m) => m.includes(email)).length).toBe(mailsBefore + 1);
      // Twice: the same answer, nothing new.
      const again = await approve(eventID, personID);
      expect(again.data[0]).toEqual(ok.data[0]);
      expect(await changes('event.applicant.approve', eventID)).toEqual([Number(personID), Number(personID)]);
    });

    it('approving when the event is full answers a clear line, and a waiting list takes the applicant instead', async () => {
      const eventID = await newEvent({ capacity: 1 });
      const a = (await register(eventID, 'first@apply.test')).data[0].personID as string;
      const b = (await register(eventID, 'second@apply.test')).data[0].personID as string;
      expect((await approve(eventID, a)).status).toBe(200);
      expect((await approve(eventID, b)).text).toBe(
        '409 registration is full: no place left to approve this applicant',
      );
      expect(await attendee(eventID, b)).toBeUndefined();
      expect((await c.ok('event.applicant.get', { token: w.adminA, query: { eventID, personID: b } }))[0].approved).toBe('0'); // prettier-ignore
      await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'waitingList' }, body: { value: 1 } });
      expect((await approve(eventID, b)).status).toBe(200);
      expect(await attendee(eventID, b)).toMatchObject({ approved: 0 });
    });

    it('dismiss refuses a pending application; an approved one is an attendee', async () => {
      const eventID = await newEvent();
      const a = (await register(eventID, 'no@apply.test')).data[0].personID as string;
      const b = (await register(eventID, 'yes@apply.test')).data[0].personID as string;
      const [gone] = await c.ok('event.applicant.dismiss', { token: w.adminA, query: { eventID, personID: a } });
      expect(gone).toMatchObject({ personID: a, approved: '0' });
      await c.fail('event.applicant.get', { token: w.adminA, query: { eventID, personID: a } }, 404, /^404 applicant not found$/); // prettier-ignore
      await c.fail('event.applicant.dismiss', { token: w.adminA, query: { eventID, personID: a } }, 404, /^404 applicant not found$/); // prettier-ignore
      await c.fail('event.applicant.approve', { token: w.adminA, query: { eventID, personID: a } }, 404, /^404 applicant not found$/); // prettier-ignore
      await approve(eventID, b);
      await c.fail('event.applicant.dismiss', { token: w.adminA, query: { eventID, personID: b } }, 409, /^409 the applicant is approved already: event.person.dismiss removes an attendee$/); // prettier-ignore
      // Refused, the person may apply again.
      expect((await register(eventID, 'no@apply.test')).data[0]).toMatchObject({ approved: '-1', duplicate: '0' });
      expect(await changes('event.applicant.dismiss', eventID)).toEqual([Number(a)]);
    });

    it('find lists, filters, sorts and pages the applications', async () => {
      const eventID = await newEvent();
      for (const [first, last] of [
        ['Zoe', 'Alves'],
        ['Bea', 'Cruz'],
        ['Ana', 'Bento'],
      ])
        await register(eventID, `${first.toLowerCase()}@find.test`, { firstName: first, lastName: last });
      const find = (query: Record<string, string>) =>
        c.call('event.applicant.find', { token: w.adminA, query: { eventID, ...query } });
      const names = async (query: Record<string, string>) => (await find(query)).data.map((r) => r.firstName);
      expect(await names({})).toEqual(['Zoe', 'Bea', 'Ana']);
      expect(await names({ sort: 'firstName' })).toEqual(['Ana', 'Bea', 'Zoe']);
      expect(await names({ sort: 'lastName', order: 'DESC' })).toEqual(['Bea', 'Ana', 'Zoe']);
      expect(await names({ sort: 'fullName' })).toEqual(['Ana', 'Bea', 'Zoe']);
      expect(await names({ sort: 'email', order: 'DESC' })).toEqual(['Zoe', 'Bea', 'Ana']);
      expect(await names({ query: 'CRU' })).toEqual(['Bea']);
      expect(await names({ query: 'find.test', sort: 'personID', order: 'DESC' })).toEqual(['Ana', 'Bea', 'Zoe']);
      const page = await find({ limit: '1', offset: '1', paginated: '1' });
      expect(page.total).toBe('3');
      expect(page.data.map((r) => r.firstName)).toEqual(['Bea']);
      const [zoe] = (await find({ query: 'zoe' })).data;
      await approve(eventID, zoe.personID as string);
      expect(await names({ selection: 'approved' })).toEqual(['Zoe']);
      expect(await names({ selection: 'pending' })).toEqual(['Bea', 'Ana']);
      await c.fail('event.applicant.find', { token: w.adminA, query: { eventID, sort: 'age' } }, 400, /^400 sort must be one of fullName, firstName, lastName, email, personID$/); // prettier-ignore
    });

    it('operate edits a pending application: B firstName, lastName, email, or B content', async () => {
      const eventID = await newEvent();
      const personID = (await register(eventID, `edit-${style}@apply.test`)).data[0].personID as string;
      const op = (body: Record<string, string>, token = w.adminA) =>
        c.call('event.applicant.operate', { token, query: { eventID, personID }, body });
      const r = await op({ firstName: 'Ana Maria', lastName: 'Souza', email: 'NEW@apply.test' });
      expect(r.status, r.text).toBe(200);
      expect(r.data[0]).toMatchObject({ firstName: 'Ana Maria', lastName: 'Souza', name: 'Ana Maria Souza', email: 'new@apply.test' }); // prettier-ignore
      const content = await op({ content: JSON.stringify({ role: 'Head', company: 'Zeta', telephone: 123 }) });
      expect(content.data[0]).toMatchObject({ role: 'Head', company: 'Zeta', telephone: '123', firstName: 'Ana Maria' }); // prettier-ignore
      expect((await c.ok('event.applicant.get', { token: w.adminA, query: { eventID, personID } }))[0]).toMatchObject({ role: 'Head', email: 'new@apply.test' }); // prettier-ignore
      expect((await op({ content: '{"level":4}' })).text).toBe('400 content key level cannot be edited; keys: firstName, lastName, email, role, company, telephone'); // prettier-ignore
      expect((await op({ content: '[1]' })).text).toBe('400 content must be a JSON object of key values');
      expect((await op({ content: '{"email":"x"}' })).text).toBe('400 email must be an e-mail address');
      expect((await op({ firstName: 'A' })).text).toMatch(/^400 one of these is required/);
      await approve(eventID, personID);
      expect((await op({ content: '{"role":"Late"}' })).text).toBe('409 the applicant is approved already: event.person.operate edits an attendee'); // prettier-ignore
      expect(await changes('event.applicant.operate', eventID)).toEqual([Number(personID), Number(personID)]);
    });

    it('an applicant reads and edits their own application with their token (no personID)', async () => {
      const eventID = await newEvent();
      const email = `own-${style}@apply.test`;
      await p.person(email, PASSWORD);
      const token = await p.signIn(email, PASSWORD);
      const personID = (await register(eventID, email)).data[0].personID as string;
      expect((await c.ok('event.applicant.get', { token, query: { eventID } }))[0]).toMatchObject({ personID, approved: '0' }); // prettier-ignore
      const [edited] = await c.ok('event.applicant.operate', { token, query: { eventID }, body: { content: '{"company":"Mine"}' } }); // prettier-ignore
      expect(edited.company).toBe('Mine');
      // Not someone else's, and not approving themself.
      const other = (await register(eventID, `other-${style}@apply.test`)).data[0].personID as string;
      await c.fail('event.applicant.get', { token, query: { eventID, personID: other } }, 404, /^404 event not found$/);
      await c.fail('event.applicant.approve', { token, query: { eventID, personID } }, 404, /^404 event not found$/);
      // An event-scope token of the same person, for another event, acts in that event only (spec §5.3).
      const elsewhere = Number(w.eventA.eventID);
      await p.enrol(elsewhere, Number(personID), { level: 1, passwordHash: await hashPassword(`${PASSWORD} there`) });
      const scoped = await p.signIn(email, `${PASSWORD} there`, elsewhere);
      await c.fail('event.applicant.get', { token: scoped, query: { eventID } }, 404, /^404 event not found$/);
      const body = { content: '{"company":"Theirs"}' };
      await c.fail(
        'event.applicant.operate',
        { token: scoped, query: { eventID }, body },
        404,
        /^404 event not found$/,
      );
      expect((await c.ok('event.applicant.get', { token, query: { eventID } }))[0].company).toBe('Mine');
    });

    it('the bulk form imports applications from a CSV file in IMPORT_DIR (admins), all or nothing', async () => {
      const eventID = await newEvent({ approvalRequired: 0 });
      await register(eventID, 'already@bulk.test');
      const own = join(importDir, w.companyA.companyID); // the company's own folder
      mkdirSync(own, { recursive: true });
      writeFileSync(join(own, `ok-${style}.csv`), 'name,email,role\n"Lia Mota",Lia@Bulk.test,Chef\n,sem@bulk.test,\n');
      writeFileSync(join(own, `bad-${style}.csv`), 'name,email\nGood One,good@bulk.test\nNo Mail,nope\n');
      writeFileSync(join(own, `member-${style}.csv`), 'name,email\nAlready,already@bulk.test\n');
      const bulk = (path: string, token: string | undefined = w.adminA) =>
        c.call('event.applicant.bind', { token, query: { eventID }, body: { path } });
      const r = await bulk(`ok-${style}.csv`);
      expect(r.status, r.text).toBe(200);
      expect(r.data.map((x) => [x.name, x.email, x.role, x.origin, x.approved])).toEqual([
        ['Lia Mota', 'lia@bulk.test', 'Chef', 'import', '0'],
        ['sem', 'sem@bulk.test', '', 'import', '0'],
      ]);
      // Again: the applications stay as they are.
      expect((await bulk(`ok-${style}.csv`)).data.map((x) => x.personID)).toEqual(r.data.map((x) => x.personID));
      expect((await bulk(`bad-${style}.csv`)).text).toBe('400 path row 3: email must be an e-mail address');
      expect((await c.ok('event.applicant.find', { token: w.adminA, query: { eventID, query: 'good' } })).length).toBe(0); // prettier-ignore
      expect((await bulk(`member-${style}.csv`)).text).toBe('409 path row 2: the person is already an attendee of this event'); // prettier-ignore
      expect((await bulk('../outside.csv')).text).toBe(
        `400 path must name a file inside the import folder (IMPORT_DIR/${w.companyA.companyID})`,
      );
      expect((await bulk(`ok-${style}.csv`, '')).text).toBe('401 tokenID cannot be empty');
      expect((await bulk(`ok-${style}.csv`, w.attendee)).status).toBe(404);
      expect((await bulk(`ok-${style}.csv`, w.adminB)).text).toBe('404 event not found');
      // A's files are not B's to import into B's own event, by name or through a link out of B's folder.
      const b = w.companyB.companyID;
      mkdirSync(join(importDir, b), { recursive: true });
      symlinkSync(join(own, `ok-${style}.csv`), join(importDir, b, `link-${style}.csv`));
      for (const path of [`ok-${style}.csv`, `../${w.companyA.companyID}/ok-${style}.csv`, `link-${style}.csv`]) {
        const r = await c.call('event.applicant.bind', { token: w.adminB, query: { eventID: w.eventB.eventID }, body: { path } }); // prettier-ignore
        expect(r.text).toMatch(new RegExp(`^400 path (does not name a readable import file in|must name a file inside) the import folder \\(IMPORT_DIR/${b}\\)$`)); // prettier-ignore
      }
    });

    it.each([
      ['event.applicant.find', false],
      ['event.applicant.get', true],
      ['event.applicant.approve', true],
      ['event.applicant.dismiss', true],
    ] as const)("%s: another company's admin gets what a missing event gets, an attendee 403", async (name, named) => {
      const eventID = w.eventA.eventID;
      await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'approvalRequired' }, body: { value: 1 } });
      const personID = (await register(eventID, `idor-${style}-${seq++}@apply.test`)).data[0].personID as string;
      const query: Record<string, string> = named ? { eventID, personID } : { eventID };
      const b = await c.call(name, { token: w.adminB, query });
      const missing = await c.call(name, { token: w.adminB, query: { ...query, eventID: '987654321' } });
      expect(b.text).toBe('404 event not found');
      expect(missing.text).toBe(b.text);
      expect((await c.call(name, { token: w.attendee, query })).status).toBe(403);
      await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'approvalRequired' }, body: { value: 0 } });
    });

    it("operate on someone else's application: another company's admin gets 404, as for a missing event", async () => {
      const eventID = await newEvent();
      const personID = (await register(eventID, `op-idor-${style}@apply.test`)).data[0].personID as string;
      const body = { content: '{"role":"x"}' };
      expect((await c.call('event.applicant.operate', { token: w.adminB, query: { eventID, personID }, body })).text).toBe('404 event not found'); // prettier-ignore
      expect((await c.call('event.applicant.operate', { token: w.adminB, query: { eventID: '987654321', personID }, body })).text).toBe('404 event not found'); // prettier-ignore
    });
  });
});
