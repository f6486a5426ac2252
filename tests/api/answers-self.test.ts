// event.person.operate key feedbackContent (issue 18, "My registration"): an attendee changes their own
// answers to the form's custom fields while the form is open, checked as at registration (types,
// options, required fields), replacing every answer; after the form closes only the event's admins may;
// nobody may change another attendee's answers. Both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLink } from '../../src/platform/resources/person/magic.ts';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

const nowS = () => Math.floor(Date.now() / 1000);

describe.each(STORES)('own answers on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventA: number;
  let n = 0;
  let size: string;
  let topics: string;
  let note: string;

  async function attendee() {
    const personID = await p.person(`answers-${kind}-${++n}@podium.test`, 'irrelevant password');
    await p.enrol(eventA, personID, {});
    const code = (await issueLink(p.db, eventA, personID, nowS(), 900))!;
    const [record] = await p.ok('person.signInLink', { query: { eventID: eventA }, body: { code } });
    return { personID, token: record.tokenID };
  }
  /** The answered fields (event.person.get lists every field, '' when unanswered). */
  const answersOf = async (token: string) =>
    Object.fromEntries(
      ((await p.ok('event.person.get', { token, query: { eventID: eventA } }))[0].feedbacks as unknown as { feedbackID: string; value: string }[]).filter((f) => f.value !== '').map((f) => [f.feedbackID, f.value]), // prettier-ignore
    );
  const save = (token: string, content: unknown, personID?: number) =>
    p.call('event.person.operate', {
      token,
      query: { eventID: eventA, key: 'feedbackContent', ...(personID ? { personID } : {}) },
      body: { value: JSON.stringify(content) },
    });
  const field = async (body: Record<string, string>) =>
    (await p.ok('feedback.create', { token: w.adminA, query: { eventID: eventA }, body }))[0].feedbackID;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    eventA = Number(w.eventA.eventID);
    await p.ok('form.edit', { token: w.adminA, query: { eventID: eventA, key: 'enrollmentOpen' }, body: { value: 1 } }); // prettier-ignore
    size = await field({ name: 'Company size', type: 'select', options: '["1-10","11-50"]', required: '1' });
    topics = await field({ name: 'Topics', type: 'multiselect', options: '["AI","Web"]' });
    note = await field({ name: 'Note', type: 'text' });
  });
  afterAll(async () => p?.close());

  it('the attendee replaces their own answers, checked as at registration', async () => {
    const me = await attendee();
    const saved = await save(me.token, [
      { feedbackID: size, value: '11-50' },
      { feedbackID: topics, value: ['AI', 'Web'] },
      { feedbackID: note, value: 'vegetarian' },
    ]);
    expect(saved.status, saved.text).toBe(200);
    expect(await answersOf(me.token)).toEqual({ [size]: '11-50', [topics]: '["AI","Web"]', [note]: 'vegetarian' });
    // Replaces: a field left out has no answer any more.
    expect((await save(me.token, [{ feedbackID: size, value: '1-10' }])).status).toBe(200);
    expect(await answersOf(me.token)).toEqual({ [size]: '1-10' });
    // As at registration: a required field, an option that is not one, a field of no form.
    for (const [content, message] of [
      [[{ feedbackID: note, value: 'x' }], /cannot be empty/],
      [[{ feedbackID: size, value: '500+' }], /must be one of/],
      [
        [
          { feedbackID: size, value: '1-10' },
          { feedbackID: 999999, value: 'x' },
        ],
        /is not a field of this form/,
      ],
    ] as const) {
      const r = await save(me.token, content);
      expect(r.status).toBe(400);
      expect(r.text).toMatch(message);
    }
    expect(await answersOf(me.token)).toEqual({ [size]: '1-10' });
  });

  it("nobody changes another attendee's answers; after the form closes only admins may", async () => {
    const me = await attendee();
    const other = await attendee();
    await save(other.token, [{ feedbackID: size, value: '1-10' }]);
    const tried = await save(me.token, [{ feedbackID: size, value: '11-50' }], other.personID);
    expect(tried.status).toBe(403);
    expect(await answersOf(other.token)).toEqual({ [size]: '1-10' });
    await p.ok('form.edit', { token: w.adminA, query: { eventID: eventA, key: 'enrollmentOpen' }, body: { value: 0 } }); // prettier-ignore
    try {
      const closed = await save(me.token, [{ feedbackID: size, value: '11-50' }]);
      expect(closed.status).toBe(403);
      expect(closed.text).toBe('403 answers cannot be changed: registration is closed');
      const admin = await save(w.adminA, [{ feedbackID: size, value: '11-50' }], other.personID);
      expect(admin.status, admin.text).toBe(200);
      expect(await answersOf(other.token)).toEqual({ [size]: '11-50' });
    } finally {
      await p.ok('form.edit', { token: w.adminA, query: { eventID: eventA, key: 'enrollmentOpen' }, body: { value: 1 } }); // prettier-ignore
    }
  });
});
