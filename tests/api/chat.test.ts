// Chat (issue 16, spec §4.8, docs/api/chat.md): chat.create, chat.find (a conversation, and the list of
// conversations), chat.get, chat.view, on both stores and in both call styles; who may write to whom
// (people of the event, profiles not private, admins to anyone), the sanitizer, the rate limit, the change
// each write records, the chat/send push channel heard by the receiver alone, and that another person's,
// event's or company's token gets exactly what a missing object gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';
import { openStream, type OpenStream } from '../helpers/sse.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { pushMessageWire } from '../../src/shared/wire/push.ts';
import { chatWire } from '../../src/shared/wire/chat.ts';
import { sanitizeUserText } from '../../src/platform/resources/html.ts';
import { isDelivered } from '../../src/platform/resources/webhook/fields.ts';

const PER_MINUTE = 6;
const EVENT_PASSWORD = `${PASSWORD} event`;
const UNKNOWN = '987654321';

describe('what people write to each other', () => {
  it.each([
    ['<script>alert(1)</script>hi', 'hi'],
    ['<img src=x onerror=alert(1)>', ''],
    ['<svg><script>alert(1)</script></svg>ok', 'ok'],
    ['<a href="javascript:alert(1)">link</a>', 'link'],
    ['<<script>script>alert(1)<</script>/script>', '&lt;/script&gt;'],
    ['<!--<script>-->x', 'x'],
    ['<style>*{}</style><b onclick=x>bold</b>', 'bold'],
    ['1 < 2 && 3 > 2', '1 &lt; 2 &amp;&amp; 3 &gt; 2'],
    ['&lt;b&gt; typed as text', '&lt;b&gt; typed as text'],
  ])('sanitizeUserText(%j) is %j: no element survives', (text, out) => {
    expect(sanitizeUserText(text)).toBe(out);
    expect(sanitizeUserText(text)).not.toMatch(/</);
  });

  it('chat writes are delivered to no webhook: the company is not told who writes to whom', () => {
    for (const op of ['chat.create', 'chat.view']) expect(isDelivered(op)).toBe(false);
    expect(isDelivered('comment.create')).toBe(true);
  });
});

describe.each(STORES)('chat on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventID: string;
  let passwordHash: string;
  let seq = 0;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    p = await startTestPlatform(kind, { CHAT_PER_MINUTE: String(PER_MINUTE) });
    w = await world(p);
    eventID = w.eventA.eventID;
    passwordHash = await hashPassword(EVENT_PASSWORD);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await p?.close();
  });

  /** A new person of event A (or `event`), with an event-scope token. */
  async function member(opts: { private?: 0 | 1; event?: string; level?: number } = {}) {
    seq++;
    const email = `chat${seq}@podium.test`;
    const personID = await p.person(email, PASSWORD);
    const event = Number(opts.event ?? eventID);
    await p.db
      .updateTable('person')
      .set({ name: `Chatter ${seq}` })
      .where('personID', '=', personID)
      .execute();
    await p.enrol(event, personID, { level: opts.level ?? 1, passwordHash, private: opts.private ?? 0 });
    await p.db
      .updateTable('eventPerson')
      .set({ name: `Chatter ${seq}` })
      .where('personID', '=', personID)
      .execute();
    return { personID: String(personID), token: await p.signIn(email, EVENT_PASSWORD, event), name: `Chatter ${seq}` };
  }

  describe.each(STYLES)('%s style', (style) => {
    let c: Client;
    beforeAll(() => {
      c = client(p, style);
    });
    const send = (token: string, personID: string, message: string, event = eventID) =>
      c.call('chat.create', { token, query: { eventID: event, personID }, body: { message } });

    it('chat.create sends a plain-text message and answers it as the sender sees it', async () => {
      const [a, b] = [await member(), await member()];
      const r = await send(
        a.token,
        b.personID,
        '<b>Hi</b> <script>alert(1)</script>there & "you" <img src=x onerror=alert(1)>',
      );
      expect(r.status, r.text).toBe(200);
      const row = chatWire.parse(r.data[0]);
      expect(row).toMatchObject({
        senderID: a.personID,
        receiverID: b.personID,
        eventID,
        message: 'Hi there &amp; "you"',
        viewed: '0',
        personID: b.personID,
        personName: b.name,
        unread: '',
      });
      expect(Number(row.date)).toBeGreaterThan(1_700_000_000);
      expect(Object.keys(r.data[0]).sort()).toEqual(Object.keys(chatWire.shape).sort());
      // The write recorded its change, the new message as its object.
      const change = await p.db.selectFrom('change').selectAll().where('operation', '=', 'chat.create').orderBy('changeID', 'desc').executeTakeFirstOrThrow(); // prettier-ignore
      expect(change).toMatchObject({ kind: 'chat', eventID: Number(eventID), objectID: Number(row.chatID) });
    });

    it('chat.find with personID is the conversation both ways, newest first, paged; chat.get reads one of it', async () => {
      const [a, b, other] = [await member(), await member(), await member()];
      const ids: string[] = [];
      for (const [from, to, text] of [
        [a, b, 'one'],
        [b, a, 'two'],
        [a, b, 'three'],
        [a, other, 'elsewhere'],
      ] as const)
        ids.push((await send(from.token, to.personID, text)).data[0].chatID as string);
      const mine = await c.ok('chat.find', { token: a.token, query: { eventID, personID: b.personID } });
      expect(mine.map((m) => m.message)).toEqual(['three', 'two', 'one']);
      expect(mine.every((m) => m.personID === b.personID && m.personName === b.name)).toBe(true);
      const theirs = await c.ok('chat.find', { token: b.token, query: { eventID, personID: a.personID } });
      expect(theirs.map((m) => m.chatID)).toEqual(mine.map((m) => m.chatID));
      expect(theirs[0].personID).toBe(a.personID);
      const page = await c.call('chat.find', { token: a.token, query: { eventID, personID: b.personID, limit: 2, offset: 1, paginated: 1 } }); // prettier-ignore
      expect(page.total).toBe('3');
      expect(page.data.map((m) => m.message)).toEqual(['two', 'one']);
      const [one] = await c.ok('chat.get', { token: b.token, query: { chatID: ids[0] } });
      expect(one).toMatchObject({ chatID: ids[0], message: 'one', senderID: a.personID, personID: a.personID });
    });

    it('chat.find without personID lists the conversations, newest first, with unread counts; chat.view marks one read', async () => {
      const [me, b, d] = [await member(), await member(), await member()];
      await send(b.token, me.personID, 'from b 1');
      await send(b.token, me.personID, 'from b 2');
      await send(me.token, d.personID, 'to d');
      await send(d.token, me.personID, 'from d');
      const list = await c.ok('chat.find', { token: me.token, query: { eventID } });
      expect(list.map((r) => [r.personID, r.message, r.unread])).toEqual([
        [d.personID, 'from d', '1'],
        [b.personID, 'from b 2', '2'],
      ]);
      const paged = await c.call('chat.find', { token: me.token, query: { eventID, limit: 1, paginated: 1 } });
      expect([paged.total, paged.data.map((r) => r.personID)]).toEqual(['2', [d.personID]]);
      // The sender's side: nothing unread from me.
      expect((await c.ok('chat.find', { token: b.token, query: { eventID } }))[0]).toMatchObject({ personID: me.personID, unread: '0' }); // prettier-ignore

      const [view] = await c.ok('chat.view', { token: me.token, query: { eventID, personID: b.personID } });
      expect(view).toEqual({ eventID, personID: b.personID, viewed: '2' });
      expect((await c.ok('chat.view', { token: me.token, query: { eventID, personID: b.personID } }))[0].viewed).toBe('0'); // prettier-ignore
      const after = await c.ok('chat.find', { token: me.token, query: { eventID } });
      expect(after.map((r) => r.unread)).toEqual(['1', '0']);
      const conv = await c.ok('chat.find', { token: b.token, query: { eventID, personID: me.personID } });
      expect(conv.map((m) => m.viewed)).toEqual(['1', '1']);
      // Viewing their conversation marks nothing of mine to them.
      const toD = await c.ok('chat.find', { token: d.token, query: { eventID, personID: me.personID } });
      expect(toD.map((m) => [m.message, m.viewed])).toEqual([
        ['from d', '0'],
        ['to d', '0'],
      ]);
    });

    it.each([
      ['a message over 200 characters', 'x'.repeat(201), 'ok', '400 message must be at most 200 characters'],
      ['no message', '', 'ok', '400 message cannot be empty'],
      ['only markup', '<img src=x><script>x</script>', 'ok', '400 message cannot be empty'],
      ['to yourself', 'hi', 'self', '400 personID cannot be yourself'],
      ['to a private profile', 'hi', 'private', '403 this person has made their profile private'],
      ['from a private profile', 'hi', 'fromPrivate', '403 your profile is private: make it public to chat'],
      ['to someone not of the event', 'hi', 'outsider', '404 person not found'],
      ['to an unknown person', 'hi', 'unknown', '404 person not found'],
    ] as const)('%s is refused and nothing is sent', async (_label, message, to, text) => {
      const sender = await member({ private: to === 'fromPrivate' ? 1 : 0 });
      const target =
        to === 'self' ? sender.personID
        : to === 'private' ? (await member({ private: 1 })).personID
        : to === 'outsider' ? (await member({ event: w.eventB.eventID })).personID
        : to === 'unknown' ? UNKNOWN
        : (await member()).personID; // prettier-ignore
      const before = await p.db.selectFrom('chat').select('chatID').execute();
      expect((await send(sender.token, target, message)).text).toBe(text);
      expect(await p.db.selectFrom('chat').select('chatID').execute()).toEqual(before);
    });

    it("an event's admin writes to anyone of it, private or not, and may be answered though not registered", async () => {
      const shy = await member({ private: 1 });
      const r = await send(w.adminA, shy.personID, 'Your badge is ready');
      expect(r.status, r.text).toBe(200);
      const [answer] = await c.ok('chat.create', { token: shy.token, query: { eventID, personID: r.data[0].senderID as string }, body: { message: 'Thanks' } }); // prettier-ignore
      expect(answer.personName).toBe('admin-a@podium.test');
      const list = await c.ok('chat.find', { token: shy.token, query: { eventID } });
      expect(list[0]).toMatchObject({
        personID: answer.receiverID,
        message: 'Thanks',
        personName: 'admin-a@podium.test',
      });
      // Someone the organizer never wrote to cannot write to them.
      const other = await member();
      expect((await send(other.token, answer.receiverID, 'Hello?')).text).toBe('404 person not found');
    });

    it('a message is seen only by its sender and receiver: others get what an unknown id gets', async () => {
      const [a, b, third] = [await member(), await member(), await member()];
      const chatID = (await send(a.token, b.personID, 'between us')).data[0].chatID as string;
      const missing = async (token: string, id: string) => {
        const r = await c.call('chat.get', { token, query: { chatID: id } });
        return `${r.status} ${r.text}`;
      };
      for (const token of [third.token, w.adminA, w.adminB, w.attendee]) {
        expect(await missing(token, chatID)).toBe('404 404 chat not found');
        expect(await missing(token, UNKNOWN)).toBe('404 404 chat not found');
      }
      // Nor does it show in their lists.
      expect(await c.ok('chat.find', { token: third.token, query: { eventID, personID: a.personID } })).toEqual([]);
      expect(await c.ok('chat.find', { token: third.token, query: { eventID } })).toEqual([]);
      // Another company's admin and another event's person: the event is missing.
      const outsider = await member({ event: w.eventB.eventID });
      for (const token of [w.adminB, outsider.token]) {
        for (const [name, query] of [
          ['chat.find', { eventID }],
          ['chat.find', { eventID, personID: a.personID }],
          ['chat.view', { eventID, personID: a.personID }],
        ] as const)
          expect((await c.call(name, { token, query })).text).toBe('404 event not found');
        expect((await send(token, a.personID, 'hi')).text).toBe('404 event not found');
      }
      // A person of another event named in this one: the person is missing.
      expect((await c.call('chat.find', { token: a.token, query: { eventID, personID: outsider.personID } })).text).toBe('404 person not found'); // prettier-ignore
      expect((await c.call('chat.view', { token: a.token, query: { eventID, personID: UNKNOWN } })).text).toBe('404 person not found'); // prettier-ignore
      expect((await c.call('chat.find', { query: { eventID } })).status).toBe(401);
    });

    it(`a person may send ${PER_MINUTE} messages a minute in an event; the next is 429 with Retry-After; sandbox calls spend nothing`, async () => {
      const [a, b] = [await member(), await member()];
      for (let i = 0; i < 3; i++)
        expect((await c.call('chat.create', { token: a.token, query: { eventID, personID: b.personID, sandbox: 1 }, body: { message: 'try' } })).status).toBe(200); // prettier-ignore
      expect(await c.ok('chat.find', { token: a.token, query: { eventID, personID: b.personID } })).toEqual([]);
      for (let i = 0; i < PER_MINUTE; i++) expect((await send(a.token, b.personID, `m${i}`)).status).toBe(200);
      const r = await send(a.token, b.personID, 'one too many');
      expect(r.text).toBe('429 too many chat messages, wait a minute');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      // The receiver's allowance is their own.
      expect((await send(b.token, a.personID, 'answer')).status).toBe(200);
    });
  });

  it('chat.create is heard on chat/send by the receiver alone: the sender and its chatID', async () => {
    const [a, b, third] = [await member(), await member(), await member()];
    const listen = async (token: string) => {
      const s = await openStream(`${p.url}/push/subscribe?eventID=${eventID}&channels=chat/send`, {
        authorization: `Bearer ${token}`,
      });
      streams.push(s);
      expect(s.status).toBe(200);
      return s;
    };
    const [toB, toA, toThird, all] = [await listen(b.token), await listen(a.token), await listen(third.token), await openStream(`${p.url}/push/subscribe?eventID=${eventID}&tokenID=${w.adminA}`)]; // prettier-ignore
    streams.push(all);
    const [sent] = await p.ok('chat.create', { token: a.token, query: { eventID, personID: b.personID }, body: { message: 'ping' } }); // prettier-ignore
    const heard = await toB.next((m) => m.event === 'chat/send');
    expect(pushMessageWire.parse(JSON.parse(heard.data))).toEqual({
      eventID,
      personID: a.personID,
      chatID: sent.chatID,
    });
    // The others hear only what is sent to them: a message to each, after the first, is the first they hear.
    await p.ok('chat.create', { token: b.token, query: { eventID, personID: a.personID }, body: { message: 'pong' } });
    await p.ok('chat.create', { token: b.token, query: { eventID, personID: third.personID }, body: { message: 'hi' } }); // prettier-ignore
    await toA.next((m) => m.event === 'chat/send');
    await toThird.next((m) => m.event === 'chat/send');
    expect(toA.messages.map((m) => JSON.parse(m.data).personID)).toEqual([b.personID]);
    expect(toThird.messages.map((m) => JSON.parse(m.data).personID)).toEqual([b.personID]);
    expect(toB.messages).toHaveLength(1);
    // A stream of the event's channels (the admin's, every channel it may hear) hears no one else's chat.
    await p.ok('activity.create', { token: w.adminA, query: { eventID }, body: { name: 'After the chats' } });
    await all.next((m) => m.event === 'activity/create');
    expect(all.messages.map((m) => m.event)).toEqual(['activity/create']);
  });
});
