// Comments on sessions (issue 16, spec §4.8, docs/api/comments.md): comment.create, comment.edit (key
// approved for admins, key text for the author), comment.remove, comment.get, comment.find (selections
// all and approved+me), comment.hashtags, on both stores and in both call styles; moderation through the
// company tool autoApproveComment, the sanitizer, the change of each write, and that a comment another
// person may not see answers exactly what a missing one answers — for another person, event or company.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { commentWire } from '../../src/shared/wire/comment.ts';
import { hashtagsOf, MAX_TAGS } from '../../src/platform/resources/comment/hashtags.ts';

const EVENT_PASSWORD = `${PASSWORD} event`;
const UNKNOWN = '987654321';

describe('hashtagsOf', () => {
  it.each([
    ['#AI and #ml, #ai again', ['ai', 'ml']],
    ['no tags here, not a#tag, nor &#35;ref', []],
    ['#café #日本 #x_1!', ['café', '日本', 'x_1']],
    [`#${'a'.repeat(51)}`, []],
    ['##double #', ['double']],
  ])('%s', (text, tags) => {
    expect(hashtagsOf(text)).toEqual(tags);
  });

  it(`keeps at most ${MAX_TAGS} tags, in one pass over a long text`, () => {
    const text = Array.from({ length: 500 }, (_, i) => `#t${i}`).join(' ');
    expect(hashtagsOf(text)).toHaveLength(MAX_TAGS);
    const hostile = `${'#'.repeat(50_000)}x`;
    const t = performance.now();
    hashtagsOf(hostile);
    expect(performance.now() - t).toBeLessThan(200);
  });
});

describe.each(STORES)('comments on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventID: string;
  let passwordHash: string;
  let seq = 0;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    eventID = w.eventA.eventID;
    passwordHash = await hashPassword(EVENT_PASSWORD);
  });
  afterAll(() => p?.close());

  async function member(event = eventID) {
    seq++;
    const email = `commenter${seq}@podium.test`;
    const personID = await p.person(email, PASSWORD);
    await p.enrol(Number(event), personID, { level: 1, passwordHash, name: `Commenter ${seq}` });
    return { personID: String(personID), token: await p.signIn(email, EVENT_PASSWORD, Number(event)), name: `Commenter ${seq}` }; // prettier-ignore
  }
  const session = async (event = eventID, token = w.adminA) =>
    (await p.ok('activity.create', { token, query: { eventID: event }, body: { name: `Talk ${++seq}` } }))[0]
      .activityID as string;
  const autoApprove = (value: 0 | 1) =>
    p.ok('company.tool.edit', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID, key: 'autoApproveComment' },
      body: { value },
    });

  describe.each(STYLES)('%s style', (style) => {
    let c: Client;
    beforeAll(() => {
      c = client(p, style);
    });
    const comment = (token: string, activityID: string, text: string) =>
      c.call('comment.create', { token, query: { activityID }, body: { text } });
    const edit = (token: string, commentID: string, key: string, value: string) =>
      c.call('comment.edit', { token, query: { commentID, key }, body: { value } });
    const find = (token: string, activityID: string, selection: string) =>
      c.ok('comment.find', { token, query: { activityID, selection } });

    it('comment.create keeps plain text; without autoApproveComment it waits for an admin, who approves it', async () => {
      await autoApprove(0);
      const [a, activityID] = [await member(), await session()];
      const r = await comment(a.token, activityID, '<p>Great <b>talk</b></p><script>x()</script> #AI & more');
      expect(r.status, r.text).toBe(200);
      const row = commentWire.parse(r.data[0]);
      expect(row).toMatchObject({ activityID, eventID, personID: a.personID, personName: a.name, text: 'Great talk #AI &amp; more', approved: '0', updatedDate: '0' }); // prettier-ignore
      expect(Object.keys(r.data[0]).sort()).toEqual(Object.keys(commentWire.shape).sort());
      const change = await p.db.selectFrom('change').selectAll().where('operation', '=', 'comment.create').orderBy('changeID', 'desc').executeTakeFirstOrThrow(); // prettier-ignore
      expect(change).toMatchObject({ kind: 'comment', eventID: Number(eventID), objectID: Number(row.commentID) });

      // Waiting: its author and the admins see it, nobody else; its hashtags are not counted yet.
      const other = await member();
      expect((await find(a.token, activityID, 'approved+me')).map((x) => x.commentID)).toEqual([row.commentID]);
      expect(await find(other.token, activityID, 'approved+me')).toEqual([]);
      expect((await find(w.adminA, activityID, 'all')).map((x) => x.commentID)).toEqual([row.commentID]);
      expect((await c.call('comment.get', { token: other.token, query: { commentID: row.commentID } })).text).toBe('404 comment not found'); // prettier-ignore
      expect(await c.ok('comment.hashtags', { token: a.token, query: { activityID } })).toEqual([]);

      const [approved] = (await edit(w.adminA, row.commentID, 'approved', '1')).data;
      expect(approved).toMatchObject({ commentID: row.commentID, approved: '1' });
      expect((await find(other.token, activityID, 'approved+me')).map((x) => x.commentID)).toEqual([row.commentID]);
      expect((await c.ok('comment.get', { token: other.token, query: { commentID: row.commentID } }))[0].text).toBe('Great talk #AI &amp; more'); // prettier-ignore
      expect(await c.ok('comment.hashtags', { token: other.token, query: { activityID } })).toEqual([{ hashtag: 'ai', count: '1' }]); // prettier-ignore
    });

    it('with autoApproveComment a comment shows at once; an admin’s always does', async () => {
      const activityID = await session();
      await autoApprove(1);
      const a = await member();
      expect((await comment(a.token, activityID, 'Shown')).data[0].approved).toBe('1');
      await autoApprove(0);
      expect((await comment(w.adminA, activityID, 'From the organizer')).data[0].approved).toBe('1');
      expect((await comment(a.token, activityID, 'Waits')).data[0].approved).toBe('0');
    });

    it('comment.find: all (admins) and approved+me, newest first, paged', async () => {
      await autoApprove(0);
      const [a, b, activityID] = [await member(), await member(), await session()];
      const ids: string[] = [];
      for (const [who, text] of [
        [a, 'a1'],
        [b, 'b1'],
        [a, 'a2'],
        [b, 'b2'],
      ] as const)
        ids.push((await comment(who.token, activityID, text)).data[0].commentID as string);
      await edit(w.adminA, ids[1], 'approved', '1');
      expect((await find(a.token, activityID, 'approved+me')).map((x) => x.text)).toEqual(['a2', 'b1', 'a1']);
      expect((await find(b.token, activityID, 'approved+me')).map((x) => x.text)).toEqual(['b2', 'b1']);
      expect((await find(w.adminA, activityID, 'all')).map((x) => x.text)).toEqual(['b2', 'a2', 'b1', 'a1']);
      const page = await c.call('comment.find', { token: w.adminA, query: { activityID, selection: 'all', limit: 2, offset: 1, paginated: 1 } }); // prettier-ignore
      expect([page.total, page.data.map((x) => x.text)]).toEqual(['4', ['a2', 'b1']]);
      expect((await c.call('comment.find', { token: a.token, query: { activityID, selection: 'all' } })).text).toBe('403 only event admins may list every comment'); // prettier-ignore
      expect((await c.call('comment.find', { token: a.token, query: { activityID, selection: 'mine' } })).text).toBe('400 selection must be one of all, approved, approved+me'); // prettier-ignore
    });

    it('comment.find selection approved is public: anyone who may read the session, approved comments only', async () => {
      await autoApprove(0);
      const [a, activityID] = [await member(), await session()];
      const shown = (await comment(a.token, activityID, 'shown <b>to all</b>')).data[0].commentID as string;
      await comment(a.token, activityID, 'waits');
      await edit(w.adminA, shown, 'approved', '1');
      const approved = (token?: string, query: Record<string, string> = {}) =>
        c.call('comment.find', { token, query: { activityID, selection: 'approved', ...query } });
      // Anonymous, a person of the event (even the author of the waiting one), an admin: the approved only.
      for (const token of [undefined, a.token, w.adminA, w.adminB]) {
        const r = await approved(token);
        expect(r.status, r.text).toBe(200);
        expect(r.data.map((x) => [x.commentID, x.text])).toEqual([[shown, 'shown to all']]);
      }
      expect((await c.call('comment.find', { query: { activityID, selection: 'approved+me' } })).status).toBe(401);
      expect((await c.call('comment.find', { query: { activityID: UNKNOWN, selection: 'approved' } })).text).toBe('404 activity not found'); // prettier-ignore
      // A hidden event's session does not exist for the public; a private one needs the grant.
      const hidden = (await p.ok('company.event.bind', { token: w.adminA, query: { companyID: w.companyA.companyID }, body: { name: 'Hidden', nickname: `hidden-${++seq}` } }))[0].eventID as string; // prettier-ignore
      const hiddenSession = await session(hidden);
      await p.ok('event.edit', { token: w.operator, query: { eventID: hidden, key: 'visible' }, body: { value: 0 } });
      expect((await c.call('comment.find', { query: { activityID: hiddenSession, selection: 'approved' } })).text).toBe('404 activity not found'); // prettier-ignore
      expect((await c.call('comment.find', { token: w.adminA, query: { activityID: hiddenSession, selection: 'approved' } })).status).toBe(200); // prettier-ignore
      await p.ok('event.edit', { token: w.operator, query: { eventID: hidden, key: 'visible' }, body: { value: 1 } });
      await p.ok('event.edit', { token: w.adminA, query: { eventID: hidden, key: 'accessCode' }, body: { value: '4321' } }); // prettier-ignore
      await p.ok('event.edit', { token: w.adminA, query: { eventID: hidden, key: 'public' }, body: { value: 0 } });
      expect((await c.call('comment.find', { query: { activityID: hiddenSession, selection: 'approved' } })).text).toMatch(/^403 .*grant/); // prettier-ignore
      const [check] = await p.ok('event.checkAccessCode', { query: { eventID: hidden }, body: { accessCode: 4321 } });
      expect((await c.call('comment.find', { query: { activityID: hiddenSession, selection: 'approved', grant: check.grant as string } })).status).toBe(200); // prettier-ignore
    });

    it('comment.hashtags counts the tags of approved comments, most used first, paged', async () => {
      await autoApprove(1);
      const [a, activityID] = [await member(), await session()];
      for (const text of ['#AI rocks #ml', '#ai #AI again', '#ml #web', 'no tags', '#zz'])
        await comment(a.token, activityID, text);
      await autoApprove(0);
      await comment(a.token, activityID, '#hidden waits for approval');
      expect(await c.ok('comment.hashtags', { token: a.token, query: { activityID } })).toEqual([
        { hashtag: 'ai', count: '2' },
        { hashtag: 'ml', count: '2' },
        { hashtag: 'web', count: '1' },
        { hashtag: 'zz', count: '1' },
      ]);
      const page = await c.call('comment.hashtags', { token: a.token, query: { activityID, limit: 1, offset: 1, paginated: 1 } }); // prettier-ignore
      expect([page.total, page.data]).toEqual(['4', [{ hashtag: 'ml', count: '2' }]]);
    });

    it('the author edits its text (it waits for approval again) and removes it; an admin moderates', async () => {
      await autoApprove(0);
      const [a, b, activityID] = [await member(), await member(), await session()];
      const id = (await comment(a.token, activityID, 'Frist #typo')).data[0].commentID as string;
      await edit(w.adminA, id, 'approved', '1');
      const [fixed] = (await edit(a.token, id, 'text', 'First <i>#fixed</i>')).data;
      expect(fixed).toMatchObject({ text: 'First #fixed', approved: '0' });
      expect(Number(fixed.updatedDate)).toBeGreaterThan(0);
      await edit(w.adminA, id, 'approved', '1');
      expect(await c.ok('comment.hashtags', { token: b.token, query: { activityID } })).toEqual([{ hashtag: 'fixed', count: '1' }]); // prettier-ignore

      // Others: the author alone edits the text or removes it, the admins alone approve.
      expect((await edit(b.token, id, 'text', 'Hijacked')).text).toBe('404 comment not found');
      expect((await edit(b.token, id, 'approved', '0')).text).toBe('404 comment not found');
      expect((await edit(a.token, id, 'approved', '1')).text).toBe('403 only event admins may approve comments');
      expect((await edit(w.adminA, id, 'text', 'Admin words')).text).toBe("403 only its author may edit a comment's text"); // prettier-ignore
      expect((await c.call('comment.remove', { token: b.token, query: { commentID: id } })).text).toBe('404 comment not found'); // prettier-ignore
      expect((await edit(a.token, id, 'text', '<b></b>')).text).toBe('400 value cannot be empty once markup is removed (key text)'); // prettier-ignore
      expect((await edit(a.token, id, 'nope', 'x')).text).toBe(
        '400 key nope cannot be edited here; keys: approved, text',
      );
      expect((await edit(w.adminA, id, 'approved', '2')).text).toBe('400 value must be 0 or 1 (key approved)');

      const [removed] = await c.ok('comment.remove', { token: a.token, query: { commentID: id } });
      expect(removed).toMatchObject({ commentID: id, text: 'First #fixed' });
      expect((await c.call('comment.get', { token: a.token, query: { commentID: id } })).text).toBe(
        '404 comment not found',
      );
      expect(await c.ok('comment.hashtags', { token: b.token, query: { activityID } })).toEqual([]);
      // An admin removes anyone's.
      const other = (await comment(b.token, activityID, 'Spam')).data[0].commentID as string;
      expect((await c.call('comment.remove', { token: w.adminA, query: { commentID: other } })).status).toBe(200);
      const ops = await p.db.selectFrom('change').select('operation').where('kind', '=', 'comment').where('objectID', '=', Number(id)).orderBy('changeID').execute(); // prettier-ignore
      expect(ops.map((o) => o.operation)).toEqual(['comment.create', 'comment.edit', 'comment.edit', 'comment.edit', 'comment.remove']); // prettier-ignore
    });

    it.each([
      ['no text', '', '400 text cannot be empty'],
      ['only markup', '<img src=x onerror=alert(1)><script>1</script>', '400 text cannot be empty'],
      ['over 1000 characters', 'x'.repeat(1001), '400 text must be at most 1000 characters'],
    ])('comment.create with %s is refused', async (_label, text, line) => {
      const [a, activityID] = [await member(), await session()];
      expect((await comment(a.token, activityID, text)).text).toBe(line);
      expect(await find(w.adminA, activityID, 'all')).toEqual([]);
    });

    it('another company, event or person gets exactly what a missing comment or session gets', async () => {
      await autoApprove(0);
      const [a, activityID] = [await member(), await session()];
      const waiting = (await comment(a.token, activityID, 'waiting')).data[0].commentID as string;
      const outsider = await member(w.eventB.eventID);
      const stranger = await member();
      const line = async (name: string, token: string, query: Record<string, string>, body?: Record<string, string>) =>
        (await c.call(name, { token, query, body })).text;
      for (const token of [w.adminB, outsider.token]) {
        for (const id of [waiting, UNKNOWN]) {
          expect(await line('comment.get', token, { commentID: id })).toBe('404 comment not found');
          expect(await line('comment.remove', token, { commentID: id })).toBe('404 comment not found');
          expect(await line('comment.edit', token, { commentID: id, key: 'approved' }, { value: '1' })).toBe('404 comment not found'); // prettier-ignore
        }
        for (const id of [activityID, UNKNOWN]) {
          expect(await line('comment.create', token, { activityID: id }, { text: 'x' })).toBe('404 activity not found');
          expect(await line('comment.find', token, { activityID: id, selection: 'approved+me' })).toBe('404 activity not found'); // prettier-ignore
          expect(await line('comment.hashtags', token, { activityID: id })).toBe('404 activity not found');
        }
      }
      // A person of the event who is not its author: a comment waiting for moderation does not exist for them.
      for (const id of [waiting, UNKNOWN]) {
        expect(await line('comment.get', stranger.token, { commentID: id })).toBe('404 comment not found');
        expect(await line('comment.remove', stranger.token, { commentID: id })).toBe('404 comment not found');
        expect(await line('comment.edit', stranger.token, { commentID: id, key: 'text' }, { value: 'x' })).toBe('404 comment not found'); // prettier-ignore
      }
      // A session of another event is not the caller's to comment on.
      const elsewhere = await session(w.eventB.eventID, w.adminB);
      expect(await line('comment.create', a.token, { activityID: elsewhere }, { text: 'x' })).toBe(
        '404 activity not found',
      );
      expect((await c.call('comment.get', { query: { commentID: waiting } })).status).toBe(401);
    });
  });
});
