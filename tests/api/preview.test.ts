import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { grantKind, PREVIEW_REFUSED, PREVIEW_TTL_SECONDS } from '../../src/platform/auth/grant.ts';

// event.preview (docs/api/site.md "Preview"): a link for an event's admins to see its site before it is
// published. Its grant opens the public reads of the hidden (or private) event, for an hour; an access
// code's grant does not open a hidden event; nobody registers through a preview.

/** A browser's Web Push public key (push.bind checks its shape). */
function browserKey(): string {
  const key = createECDH('prime256v1');
  key.generateKeys();
  return key.getPublicKey().toString('base64url');
}

describe.each(STORES)('event.preview on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let hidden: string;
  let preview: Record<string, string>;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { SITE_URL: 'https://events.example.test' });
    w = await world(p);
    const made = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: 'Draft Day', nickname: 'draft-day' },
    });
    hidden = made[0].eventID;
    [preview] = await p.ok('event.preview', { token: w.adminA, query: { eventID: hidden } });
  });
  afterAll(() => p?.close());

  const anonymous = (op: string, query: Record<string, string>) => p.call(op, { query: { eventID: hidden, ...query } });

  it('answers a grant, when it ends and the link to the site', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(preview.grant).toMatch(new RegExp(`^${hidden}\\.\\d+\\.[\\w-]{43}$`));
    expect(Number(preview.expires) - now).toBeGreaterThanOrEqual(PREVIEW_TTL_SECONDS - 5);
    expect(Number(preview.expires) - now).toBeLessThanOrEqual(PREVIEW_TTL_SECONDS);
    const { namespace } = (
      await p.ok('company.get', { token: w.adminA, query: { companyID: w.companyA.companyID } })
    )[0];
    expect(preview.url).toBe(`https://events.example.test/${namespace}/draft-day/preview?grant=${encodeURIComponent(preview.grant)}`); // prettier-ignore
    expect(await grantKind(p.db, preview.grant, Number(hidden), now)).toBe('preview');
    expect(await grantKind(p.db, preview.grant, Number(hidden), Number(preview.expires))).toBeUndefined();
  });

  it.each([
    ['event.get', {}],
    ['event.hotsite.find', {}],
    ['activity.find', {}],
    ['speaker.find', {}],
  ])('%s of the hidden event: 404 without the grant, read with it', async (op, query) => {
    expect((await anonymous(op, query)).status).toBe(404);
    const read = await anonymous(op, { ...query, grant: preview.grant });
    expect(read.status, read.text).toBe(200);
    if (op === 'event.get') expect(read.data[0]).toMatchObject({ eventID: hidden, name: 'Draft Day', visible: '0' });
  });

  it("opens no other event, and a forged or an access code's grant opens nothing hidden", async () => {
    const forged = preview.grant.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await anonymous('activity.find', { grant: forged })).status).toBe(404);
    // Another hidden event of the same company: its own preview opens it, this one's does not.
    const [second] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: 'Second Draft', nickname: 'second-draft' },
    });
    const [own] = await p.ok('event.preview', { token: w.adminA, query: { eventID: second.eventID } });
    const readSecond = (grant: string) => p.call('activity.find', { query: { eventID: second.eventID, grant } });
    expect((await readSecond(preview.grant)).status).toBe(404);
    expect((await readSecond(own.grant)).status).toBe(200);
    // Private and hidden: its admin may try its code, and gets a grant — which opens the private event's
    // content once visible, but not while it is hidden.
    for (const [key, value] of [
      ['accessCode', '4321'],
      ['public', '0'],
    ])
      await p.ok('event.edit', { token: w.adminA, query: { eventID: hidden, key }, body: { value } });
    const [checked] = await p.ok('event.checkAccessCode', { token: w.adminA, query: { eventID: hidden }, body: { accessCode: '4321' } }); // prettier-ignore
    expect(checked.correct).toBe('1');
    expect((await anonymous('activity.find', { grant: checked.grant })).status).toBe(404);
    expect((await anonymous('activity.find', { grant: preview.grant })).status).toBe(200);
    const [full] = await p.ok('event.get', { query: { eventID: hidden, grant: preview.grant } });
    expect(full.name).toBe('Draft Day'); // not the gate's shape
    await p.ok('event.edit', { token: w.adminA, query: { eventID: hidden, key: 'public' }, body: { value: '1' } });
  });

  it('is for looking: no push stream, no web push subscription, no registration for a private event', async () => {
    for (const [key, value] of [
      ['accessCode', '4321'],
      ['public', '0'],
      ['visible', '1'],
    ])
      await p.ok('event.edit', { token: w.adminA, query: { eventID: hidden, key }, body: { value } });
    try {
      // Visible and private now: the preview still reads it, but registers no one (the code's grant does).
      expect((await anonymous('activity.find', { grant: preview.grant })).status).toBe(200);
      const register = await p.call('form.respondRegistration', {
        query: { eventID: hidden, grant: preview.grant },
        body: { firstName: 'Pre', lastName: 'View', email: 'pre@view.test', feedbackContent: '[]' },
      });
      expect(register.text).toBe('403 this event is private: send the grant of event.checkAccessCode');
      const activityIDs = await p.insertRow('activity', { eventID: Number(hidden), name: 'Opening' }, 'activityID');
      const bind = await p.call('push.bind', {
        query: { eventID: hidden, grant: preview.grant },
        body: { endpoint: 'https://fcm.googleapis.com/fcm/send/preview', p256dh: browserKey(), auth: randomBytes(16).toString('base64url'), activityIDs }, // prettier-ignore
      });
      expect(bind.status, bind.text).toBe(403);
      const stream = await p.call('push.subscribe', { query: { eventID: hidden, grant: preview.grant } });
      expect(stream.text).toBe('404 event not found');
    } finally {
      for (const [key, value] of [
        ['visible', '0'],
        ['public', '1'],
      ])
        await p.ok('event.edit', { token: w.adminA, query: { eventID: hidden, key }, body: { value } });
    }
  });

  it('takes no registration while the event is hidden', async () => {
    const register = (grant?: string) =>
      p.call('form.respondRegistration', {
        query: { eventID: hidden, ...(grant ? { grant } : {}) },
        body: { firstName: 'Pre', lastName: 'View', email: 'pre@view.test', feedbackContent: '[]' },
      });
    expect((await register()).text).toBe('404 event not found');
    expect((await register(preview.grant)).text).toBe(`403 ${PREVIEW_REFUSED}`);
  });

  it("is its admins' alone; a template has no site", async () => {
    expect((await p.call('event.preview', { token: w.attendee, query: { eventID: w.eventA.eventID } })).status).toBe(
      403,
    );
    expect((await p.call('event.preview', { token: w.adminB, query: { eventID: hidden } })).status).toBe(404);
    expect((await p.call('event.preview', { query: { eventID: hidden } })).status).toBe(401);
    await p.db.updateTable('event').set({ isTemplate: 1 }).where('eventID', '=', Number(w.eventB.eventID)).execute();
    const template = await p.call('event.preview', { token: w.adminB, query: { eventID: w.eventB.eventID } });
    expect(template.text).toBe('409 a template has no site: preview an event made from it');
    await p.db.updateTable('event').set({ isTemplate: 0 }).where('eventID', '=', Number(w.eventB.eventID)).execute();
  });
});
