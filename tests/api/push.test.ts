// push.subscribe (issue 13): the spec §6 channels of one event as Server-Sent Events. Every channel and
// its payload, the channel filter, every audience (public, grant of a private event, a token of someone
// related to it; nobody else), the stream closed when the event stops being theirs, resume after
// Last-Event-ID (header and query), the refusals (400 naming the channel, 404 before any stream, 429 per
// address), on SQLite and PostgreSQL, and a write through one process heard on another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  STORES,
  startTestPlatform,
  TWO_PROCESSES,
  twoProcesses,
  world,
  type TestPlatform,
  type World,
} from '../helpers/platform.ts';
import { openStream, type OpenStream } from '../helpers/sse.ts';
import { until } from '../helpers/processes.ts';
import { pushMessageWire } from '../../src/shared/wire/push.ts';
import { channelOf } from '../../src/platform/resources/push/channels.ts';
import { GRANT_TTL_SECONDS, issueGrant } from '../../src/platform/auth/grant.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { createConfirmation } from '../../src/platform/resources/person/identity.ts';
import { pruneChanges } from '../../src/platform/resources/change/log.ts';

/** The operation under test (the operation suites find it by this name). */
const OP = 'push.subscribe';
const data = (m: { data: string }) => pushMessageWire.parse(JSON.parse(m.data));
const ACCESS_CODE = '4321';
const settle = () => new Promise((r) => setTimeout(r, 200));
/** `p`, or a failure after `ms`. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

describe.each(STORES)(`${OP} on %s`, (kind) => {
  let p: TestPlatform;
  let w: World;
  const streams: OpenStream[] = [];
  const open = async (query: string, headers: Record<string, string> = {}, style: 'rest' | 'rpc' = 'rest') => {
    const path = style === 'rest' ? `/push/subscribe?${query}` : `/?action=push.subscribe&${query}`;
    const s = await openStream(`${p.url}${path}`, headers);
    streams.push(s);
    return s;
  };
  const closeAll = async () => {
    for (const s of streams.splice(0)) s.close();
    await settle();
  };
  let eventID: string;
  /** A fresh visible, public event of company A. */
  const newEvent = async (nickname: string) => {
    const [e] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: nickname, nickname },
    });
    await edit(e.eventID, 'visible', 1);
    return e.eventID as string;
  };
  const edit = (id: string, key: string, value: string | number) =>
    p.ok('event.edit', { token: w.adminA, query: { eventID: id, key }, body: { value } });
  const create = async (name: string, id = eventID) =>
    (await p.ok('activity.create', { token: w.adminA, query: { eventID: id }, body: { name } }))[0]
      .activityID as string;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { STREAM_MAX_PER_ADDRESS: '5', STREAM_HEARTBEAT_MS: '300' });
    w = await world(p);
    eventID = w.eventA.eventID;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await p?.close();
  });

  it.each(['rest', 'rpc'] as const)(
    'opens a stream (%s style) that no cache stores or proxy buffers',
    async (style) => {
      const s = await open(`eventID=${eventID}`, {}, style);
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.headers.get('cache-control')).toBe('no-store');
      expect(s.headers.get('x-accel-buffering')).toBe('no');
      expect(s.headers.get('access-control-allow-origin')).toBe('*');
      await closeAll();
    },
  );

  it("opens a stream without an id with the bus's settled id, as change.subscribe does", async () => {
    const s = await open(`eventID=${eventID}`);
    await until(async () => s.lastId() !== '', 'the opening id');
    const newest = Number((await p.db.selectFrom('change').select((e) => e.fn.max('changeID').as('id')).executeTakeFirstOrThrow()).id); // prettier-ignore
    expect(s.messages).toEqual([]);
    expect(Number(s.lastId())).toBeLessThanOrEqual(newest);
    s.close();
  });

  it('tells every channel with its payload as strings, id = the change id', async () => {
    const s = await open(`eventID=${eventID}`);
    const created = await create('Keynote');
    const [copy] = await p.ok('activity.copy', { token: w.adminA, query: { activityID: created } });
    await p.ok('activity.edit', {
      token: w.adminA,
      query: { activityID: created, key: 'name' },
      body: { value: 'K2' },
    });
    // push=1 with a value that changes nothing: still sent (spec §6 "send the notification on editing").
    await p.ok('activity.edit', {
      token: w.adminA,
      query: { activityID: created, key: 'name', push: 1 },
      body: { value: 'K2' },
    });
    await p.ok('activity.remove', { token: w.adminA, query: { activityID: copy.activityID } });
    await edit(eventID, 'name', 'A One renamed');
    const want = [
      ['activity/create', { eventID, activityID: created }],
      ['activity/create', { eventID, activityID: copy.activityID }],
      ['activity/edit', { eventID, activityID: created }],
      ['activity/edit', { eventID, activityID: created }],
      ['activity/remove', { eventID, activityID: copy.activityID }],
      ['event/edit', { eventID }],
    ];
    await s.next((m) => m.event === 'event/edit');
    expect(s.messages.map((m) => [m.event, JSON.parse(m.data)])).toEqual(want);
    for (const m of s.messages) {
      const logged = await p.db
        .selectFrom('change')
        .select('eventID')
        .where('changeID', '=', Number(m.id))
        .executeTakeFirst();
      expect(logged?.eventID).toBe(Number(eventID));
    }
    await closeAll();
  });

  it('hears only the channels asked for, and nothing of another event', async () => {
    const s = await open(`eventID=${eventID}&channels=activity/remove,event/edit`);
    const a = await create('Gone soon');
    await edit(w.eventB.eventID, 'name', 'B elsewhere').catch(() => {}); // admin A cannot: nothing either way
    await p.ok('event.edit', {
      token: w.adminB,
      query: { eventID: w.eventB.eventID, key: 'name' },
      body: { value: 'B2' },
    });
    await p.ok('activity.remove', { token: w.adminA, query: { activityID: a } });
    await edit(eventID, 'name', 'Marker');
    await s.next((m) => m.event === 'event/edit');
    expect(s.messages.map((m) => m.event)).toEqual(['activity/remove', 'event/edit']);
    expect(data(s.messages[0])).toEqual({ eventID, activityID: a });
    await closeAll();
  });

  it.each([
    [
      'an unknown channel, named',
      `channels=activity/create,chat/sned`,
      /^400 channels names an unknown channel "chat\/sned" \(known: activity\/create, /,
    ],
    ['no eventID', '', /^400 eventID /],
    ['an eventID that is not an id', 'eventID=x', /^400 eventID /],
    ['a lastEventID that is not a change id', 'lastEventID=abc', /^400 lastEventID /],
  ])('refuses %s with one plain line', async (_, query, line) => {
    const s = await open(query.startsWith('eventID') || query === '' ? query : `eventID=${eventID}&${query}`);
    expect(s.status).toBe(400);
    expect(s.text).toMatch(line);
  });

  it('answers 404 before any stream for a missing event, a hidden one and a private one without its grant', async () => {
    const hidden = await newEvent('hidden-one');
    await edit(hidden, 'visible', 0);
    const priv = await newEvent('private-one');
    await edit(priv, 'accessCode', ACCESS_CODE);
    await edit(priv, 'public', 0);
    for (const query of [
      `eventID=999999`,
      `eventID=${hidden}`,
      `eventID=${priv}`,
      `eventID=${priv}&grant=${priv}.9999999999.forged`,
    ]) {
      const s = await open(query);
      expect([s.status, s.text]).toEqual([404, '404 event not found']);
    }
    // Someone related to them (their company's admin) hears both.
    for (const id of [hidden, priv]) expect((await open(`eventID=${id}&tokenID=${w.adminA}`)).status).toBe(200);
    // Someone with a token who is not: 404 as for anyone.
    expect((await open(`eventID=${hidden}&tokenID=${w.adminB}`)).status).toBe(404);
    await closeAll();
  });

  it('sends chat/send only to a token holder, and nothing of a session there (chat.test.ts hears chat.create)', async () => {
    const anon = await open(`eventID=${eventID}&channels=chat/send`);
    expect(anon.status).toBe(403);
    expect(anon.text).toBe('403 chat/send is heard only with the token of the person it is for');
    const mine = await open(`eventID=${eventID}&channels=chat/send`, { authorization: `Bearer ${w.attendee}` });
    expect(mine.status).toBe(200);
    await create('Not chat');
    await settle();
    expect(mine.messages).toEqual([]);
    await closeAll();
  });

  it('stops the anonymous stream when the event turns private, keeps the grant’s until it is hidden, the member’s always', async () => {
    const id = await newEvent('turns-private');
    await edit(id, 'accessCode', ACCESS_CODE);
    const [{ grant }] = await p.ok('event.checkAccessCode', {
      query: { eventID: id },
      body: { accessCode: ACCESS_CODE },
    });
    const anon = await open(`eventID=${id}`);
    const granted = await open(`eventID=${id}&grant=${encodeURIComponent(grant)}`);
    const member = await open(`eventID=${id}&tokenID=${w.adminA}`);
    const first = await create('Open talk', id);
    for (const s of [anon, granted, member]) await s.next((m) => m.event === 'activity/create');

    await edit(id, 'public', 0);
    await anon.ended;
    const secret = await create('Private talk', id);
    for (const s of [granted, member]) await s.next((m) => data(m).activityID === secret);
    // The anonymous stream heard nothing after the event it was let in for turned private.
    expect(anon.messages.map((m) => data(m).activityID ?? m.event)).toEqual([first]);
    expect((await open(`eventID=${id}`)).status).toBe(404);

    await edit(id, 'visible', 0);
    await granted.ended;
    const hiddenTalk = await create('Hidden talk', id);
    await member.next((m) => data(m).activityID === hiddenTalk);
    expect(granted.messages.some((m) => data(m).activityID === hiddenTalk)).toBe(false);
    await closeAll();
  });

  it('tells activity/edit of the session a speaker, sponsor or tag is bound to or taken off', async () => {
    const session = await create('Panel');
    const other = await create('Workshop');
    const admin = { token: w.adminA, query: { eventID } };
    const [speaker] = await p.ok('speaker.create', { ...admin, body: { name: 'Ada' } });
    const [sponsor] = await p.ok('sponsor.create', { ...admin, body: { name: 'Acme' } });
    const [tag] = await p.ok('tag.create', { ...admin, body: { name: 'Track B' } });
    const s = await open(`eventID=${eventID}&channels=activity/edit`);
    const writes = [
      ['speaker', speaker.speakerID, session],
      ['sponsor', sponsor.sponsorID, other],
      ['tag', tag.tagID, session],
    ] as const;
    for (const [noun, id, activityID] of writes)
      for (const action of ['bind', 'dismiss'])
        await p.ok(`activity.${noun}.${action}`, { token: w.adminA, query: { activityID, [`${noun}ID`]: id } });
    await s.next(() => s.messages.length >= 6);
    await settle();
    expect(s.messages.map((m) => data(m))).toEqual(
      writes.flatMap(([, , activityID]) => [
        { eventID, activityID },
        { eventID, activityID },
      ]),
    );
    await closeAll();
  });

  /** A new attendee of event `id` and their event-scope token. */
  const attendee = async (id: string, name: string) => {
    const personID = await p.person(`${name}@podium.test`, PASSWORD);
    await p.enrol(Number(id), personID, { level: 1, passwordHash: await hashPassword(`${PASSWORD} event`) });
    return { personID, token: await p.signIn(`${name}@podium.test`, `${PASSWORD} event`, Number(id)) };
  };
  /** A private event of company A with ACCESS_CODE. */
  const privateEvent = async (nickname: string) => {
    const id = await newEvent(nickname);
    await edit(id, 'accessCode', ACCESS_CODE);
    await edit(id, 'public', 0);
    return id;
  };

  it('ends a stream when the grant it was let in with runs out, or its token expires', async () => {
    const id = await privateEvent('runs-out');
    const now = Math.floor(Date.now() / 1000);
    // Grants and tokens last days: these were made to run out 2 s from now.
    const ending = await issueGrant(p.db, Number(id), now - GRANT_TTL_SECONDS + 2);
    const lasting = await issueGrant(p.db, Number(id), now);
    const { personID, token } = await attendee(id, `${kind}-expiring`);
    await p.db
      .updateTable('token')
      .set({ expiresAt: now + 2 })
      .where('personID', '=', personID)
      .execute();
    const byGrant = await open(`eventID=${id}&grant=${encodeURIComponent(ending)}`);
    const byToken = await open(`eventID=${id}&tokenID=${token}`);
    const kept = await open(`eventID=${id}&grant=${encodeURIComponent(lasting)}`);
    const first = await create('Before', id);
    for (const s of [byGrant, byToken, kept]) await s.next((m) => data(m).activityID === first);
    await within(Promise.all([byGrant.ended, byToken.ended]), 4000);
    const after = await create('After', id);
    await kept.next((m) => data(m).activityID === after);
    // Asked again, they are refused: the expired grant reads as no grant, the token as stale.
    expect((await open(`eventID=${id}&grant=${encodeURIComponent(ending)}`)).status).toBe(404);
    expect((await open(`eventID=${id}&tokenID=${token}`)).status).toBe(401);
    await closeAll();
  });

  it('ends a member’s stream when their token is revoked or they leave the event, not on another write about them', async () => {
    const id = await privateEvent('revoked');
    const { personID, token } = await attendee(id, `${kind}-leaving`);
    // Their system-scope token outlives the event's removal of them; their relation to it does not.
    const system = await p.signIn(`${kind}-leaving@podium.test`, PASSWORD);
    const byEventToken = await open(`eventID=${id}&tokenID=${token}`);
    const bySystemToken = await open(`eventID=${id}&tokenID=${system}`);
    const admin = await open(`eventID=${id}&tokenID=${w.adminA}`);
    // A write about them that leaves their tokens and registration as they were: asked again, they hold.
    await p.ok('event.person.print', { token: w.adminA, query: { eventID: id, personID } });
    const kept = await create('Still theirs', id);
    for (const s of [byEventToken, bySystemToken]) await s.next((m) => data(m).activityID === kept);
    await p.ok('event.person.dismiss', { token: w.adminA, query: { eventID: id, personID } });
    await within(Promise.all([byEventToken.ended, bySystemToken.ended]), 3000);
    const gone = await create('Not theirs', id);
    await admin.next((m) => data(m).activityID === gone);
    for (const s of [byEventToken, bySystemToken])
      expect(s.messages.some((m) => data(m).activityID === gone)).toBe(false);
    expect((await open(`eventID=${id}&tokenID=${token}`)).status).toBe(401);
    expect((await open(`eventID=${id}&tokenID=${system}`)).status).toBe(404);
    await closeAll();
  });

  it('ends a member’s stream when a new password (person.confirm) revokes their tokens', async () => {
    const id = await privateEvent('new-password');
    const { personID } = await attendee(id, `${kind}-recovering`);
    const system = await p.signIn(`${kind}-recovering@podium.test`, PASSWORD);
    const s = await open(`eventID=${id}&tokenID=${system}`);
    const code = await createConfirmation(p.db, personID, 'password', Math.floor(Date.now() / 1000));
    const [{ tokenID }] = await p.ok('person.confirm', { body: { code, password: 'a new password here' } });
    await within(s.ended, 3000);
    expect((await open(`eventID=${id}&tokenID=${system}`)).status).toBe(401);
    expect((await open(`eventID=${id}&tokenID=${tokenID}`)).status).toBe(200);
    await closeAll();
  });

  it('resumes after Last-Event-ID (header or query) with what was missed, in order', async () => {
    const first = await open(`eventID=${eventID}&channels=activity/create`);
    await create('Before the drop');
    const last = await first.next((m) => m.event === 'activity/create');
    first.close();
    const missed = [await create('Missed 1'), await create('Missed 2')];
    await edit(eventID, 'name', 'Not asked for');
    for (const [query, headers] of [
      [`eventID=${eventID}&channels=activity/create`, { 'last-event-id': last.id! }],
      [`eventID=${eventID}&channels=activity/create&lastEventID=${last.id}`, {}],
    ] as const) {
      const again = await open(query, headers);
      await again.next(() => again.messages.length >= 2);
      await settle();
      expect(again.messages.map((m) => data(m).activityID)).toEqual(missed);
      again.close();
    }
    await closeAll();
  });

  it('answers one `reset`, and nothing of what the log no longer holds, when the client missed more than it keeps', async () => {
    const first = await open(`eventID=${eventID}&channels=activity/create`);
    await create('Before the prune');
    const last = await first.next((m) => m.event === 'activity/create');
    first.close();
    // Missed, then pruned (all of the log but its newest change, which stays to tell of the gap).
    await create('Pruned away');
    await create('Older than the window too');
    await pruneChanges(p.db, Date.now() + 1000);
    const again = await open(`eventID=${eventID}&channels=activity/create`, { 'last-event-id': last.id! });
    const reset = await again.next((m) => m.event === 'reset');
    expect(Number(reset.id)).toBeGreaterThan(Number(last.id));
    // From then on, the stream goes on live.
    const after = await create('After the reset');
    await again.next((m) => m.event === 'activity/create');
    expect(again.messages.map((m) => (m.event === 'reset' ? 'reset' : data(m).activityID))).toEqual(['reset', after]);
    await closeAll();
  });

  it('answers 429 past STREAM_MAX_PER_ADDRESS streams from one address, and takes one again once one closes', async () => {
    await closeAll();
    const held = await Promise.all([1, 2, 3, 4, 5].map(() => open(`eventID=${eventID}`)));
    expect(held.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    const over = await open(`eventID=${eventID}`);
    expect(over.status).toBe(429);
    expect(over.text).toBe('429 too many open streams from this address, close one first');
    expect(over.headers.get('retry-after')).toBe('5');
    held[0].close();
    await settle();
    expect((await open(`eventID=${eventID}`)).status).toBe(200);
    await closeAll();
  });
});

describe('the channel of a change', () => {
  const base = { changeID: 9, at: 0, companyID: 1, eventID: 7, objectID: 42 };
  it.each([
    ['activity.create', 'activity', 'activity/create', { eventID: '7', activityID: '42' }],
    ['activity.copy', 'activity', 'activity/create', { eventID: '7', activityID: '42' }],
    ['activity.edit', 'activity', 'activity/edit', { eventID: '7', activityID: '42' }],
    ['activity.delay', 'activity', 'activity/edit', { eventID: '7', activityID: '42' }],
    ['activity.remove', 'activity', 'activity/remove', { eventID: '7', activityID: '42' }],
    ['event.edit', 'event', 'event/edit', { eventID: '7' }],
    ['event.remove', 'event', 'event/remove', { eventID: '7' }],
    ['activity.speaker.bind', 'activity.speaker', 'activity/edit', { eventID: '7', activityID: '42' }],
    ['activity.sponsor.dismiss', 'activity.sponsor', 'activity/edit', { eventID: '7', activityID: '42' }],
    ['activity.tag.bind', 'activity.tag', 'activity/edit', { eventID: '7', activityID: '42' }],
    ['activity.chain.bind', 'activity.chain', undefined, undefined],
    ['activity.person.bind', 'activity.person', undefined, undefined],
    ['event.person.bind', 'event.person', undefined, undefined],
    ['company.event.bind', 'company.event', undefined, undefined],
  ])('%s → %s', (operation, kind, channel, payload) => {
    const m = channelOf({ ...base, operation, kind });
    expect(m?.channel).toBe(channel);
    expect(m?.data).toEqual(payload);
  });
});

describe.each(TWO_PROCESSES)('push.subscribe on another process (%s %o)', (kind, env) => {
  const two = twoProcesses(kind, env);

  it('hears a write made through the first within a second', async () => {
    const { a, b, w } = two;
    const s = await openStream(`${b.url}/push/subscribe?eventID=${w.eventA.eventID}`);
    expect(s.status).toBe(200);
    const started = performance.now();
    const [row] = await a.ok('activity.create', {
      token: w.adminA,
      query: { eventID: w.eventA.eventID },
      body: { name: 'X' },
    });
    const m = await s.next((x) => x.event === 'activity/create', 0, 1000);
    expect(data(m)).toEqual({ eventID: w.eventA.eventID, activityID: row.activityID });
    expect(performance.now() - started).toBeLessThan(1000);
    s.close();
  });
});
