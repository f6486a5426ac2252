// Web Push without an account (issue 13, outcome 4), the server side end to end on both stores: a
// browser's subscription is made here (a P-256 key pair and an auth secret, as a browser makes them),
// bound to saved sessions with push.bind; a local push service on loopback receives what the platform's
// jobs send, and the test decrypts each payload (aes128gcm) with the subscription's private key and
// checks the VAPID signature's key. One notification per move, room change or cancellation of a saved
// session; none for a new title or for sessions nobody saved; 410 deletes; push.dismiss needs the auth
// secret; the bad-input table; the subscriptions of an ended event go with the hourly prune.
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointProblem } from '../../src/platform/resources/webpush/endpoint.ts';
import { noticeOf, type ChangeRow } from '../../src/platform/resources/webpush/notice.ts';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(body: Buffer, params: { version: string; privateKey: ECDH; authSecret: string }): Buffer;
};

interface Received {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A push service on loopback: keeps every request, answers `status(path)` (201 by default). */
async function pushService(): Promise<{
  server: Server;
  origin: string;
  received: Received[];
  answer: Map<string, number>;
}> {
  const received: Received[] = [];
  const answer = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.get(req.url ?? '') ?? 201).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, answer };
}

/** A browser's subscription: its endpoint on the local push service and its keys. */
function browser(origin: string, name: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return { ecdh, auth, endpoint: `${origin}/push/${name}`, p256dh: ecdh.getPublicKey().toString('base64url') };
}
type Browser = ReturnType<typeof browser>;
/** The contact the push services see (VAPID_SUBJECT), not the default. */
const SUBJECT = 'mailto:ops@podium.test';

describe.each(STORES)('Web Push on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let push: Awaited<ReturnType<typeof pushService>>;
  let eventID: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    push = await pushService();
    p = await startTestPlatform(kind, {
      WEBPUSH_HOSTS: '127.0.0.1',
      WEBPUSH_ALLOW_HTTP: '1',
      JOBS_POLL_MS: '50',
      VAPID_SUBJECT: SUBJECT,
    });
    w = await world(p);
    eventID = w.eventA.eventID;
    await p.ok('event.edit', {
      token: w.adminA,
      query: { eventID, key: 'timezone' },
      body: { value: 'Europe/Berlin' },
    });
    // 2030-03-05 10:00 in Berlin (UTC+1).
    const begin = Date.UTC(2030, 2, 5, 9) / 1000;
    for (const [key, name, offset] of [
      ['keynote', 'Keynote', 0],
      ['workshop', 'Workshop', 3600],
      ['panel', 'Panel', 7200],
      ['unsaved', 'Lightning talks', 10800],
      ['closing', 'Closing', 14400],
    ] as const) {
      const [row] = await p.ok('activity.create', {
        token: w.adminA,
        query: { eventID },
        body: { name, location: 'Room A', dateBegin: String(begin + offset), dateEnd: String(begin + offset + 3000) },
      });
      ids[key] = row.activityID;
    }
  });
  afterAll(async () => {
    await p?.close();
    push?.server.close();
  });

  const bind = (b: Browser, activityIDs: string, extra: Record<string, string> = {}) =>
    p.call('push.bind', {
      query: { eventID },
      body: { endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth, activityIDs, ...extra },
    });
  const edit = (activityID: string, key: string, value: string) =>
    p.ok('activity.edit', { token: w.adminA, query: { activityID, key }, body: { value } });

  /** Moves one session by `minutes` (start and end). */
  const delay = (activityID: string, minutes: number) =>
    p.ok('activity.delay', { token: w.adminA, query: { activityID, minutes, subsequent: 0 } });

  /** The notifications one browser received once there are `count`, decrypted. */
  async function notices(b: Browser, count: number): Promise<Record<string, string>[]> {
    const path = new URL(b.endpoint).pathname;
    const mine = () => push.received.filter((r) => r.path === path);
    for (let i = 0; i < 200 && mine().length < count; i++) await new Promise((r) => setTimeout(r, 25));
    return mine().map((r) => {
      expect(r.headers['content-encoding']).toBe('aes128gcm');
      const plain = ece.decrypt(r.body, { version: 'aes128gcm', privateKey: b.ecdh, authSecret: b.auth });
      return JSON.parse(plain.toString('utf8')) as Record<string, string>;
    });
  }
  /** Lets the jobs run a while: for checking that nothing came. */
  const settle = () => new Promise((r) => setTimeout(r, 600));

  it('push.key answers the VAPID public key made on first start, the same on every call', async () => {
    // Made when the platform started, before anyone asked for it.
    const kept = await p.db.selectFrom('setting').select('value').where('key', '=', 'vapidKeys').executeTakeFirst();
    const [a] = await p.ok('push.key');
    expect(JSON.parse(kept!.value)).toMatchObject({ publicKey: a.publicKey });
    const [b] = await p.ok('push.key');
    expect(a.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(b.publicKey).toBe(a.publicKey);
  });

  it('one notification per move, room change and cancellation of a saved session, signed and decryptable', async () => {
    const b = browser(push.origin, `main-${kind}`);
    const other = browser(push.origin, `other-${kind}`);
    // A session of another event (its id is public there) is not one of this event's.
    const [elsewhere] = await p.ok('activity.create', {
      token: w.adminB,
      query: { eventID: w.eventB.eventID },
      body: { name: 'Elsewhere', dateBegin: '1900000000', dateEnd: '1900003600' },
    });
    const bound = await bind(b, `${ids.keynote},${ids.workshop},${ids.panel},999999,${elsewhere.activityID}`, {
      page: '/acme/summit/schedule',
    });
    expect(bound.status).toBe(200);
    // Ids of no session of the event are not kept.
    expect(bound.data[0]).toMatchObject({ eventID, activities: '3' });
    expect((await bind(other, ids.panel)).status).toBe(200);

    // Not notifying: a new title of a saved session, its speakers, and a move of a session nobody saved.
    const [speaker] = await p.ok('speaker.create', { token: w.adminA, query: { eventID }, body: { name: 'Ada' } });
    await p.ok('activity.speaker.bind', {
      token: w.adminA,
      query: { activityID: ids.keynote, speakerID: speaker.speakerID },
    });
    await p.ok('activity.edit', {
      token: w.adminB,
      query: { activityID: elsewhere.activityID, key: 'location' },
      body: { value: 'X' },
    });
    await edit(ids.keynote, 'name', 'Opening keynote');
    await delay(ids.unsaved, 60);
    await settle();
    expect(await notices(b, 0)).toEqual([]);

    await delay(ids.keynote, 240);
    expect(await notices(b, 1)).toEqual([
      {
        title: 'Your saved session moved',
        body: 'Opening keynote moved to 14:00, Room A',
        url: `/acme/summit/schedule/${ids.keynote}`,
        tag: `podium-${eventID}-${ids.keynote}`,
      },
    ]);
    await edit(ids.workshop, 'location', 'Room B');
    expect((await notices(b, 2))[1]).toMatchObject({
      title: 'Your saved session changed rooms',
      body: 'Workshop moved to Room B',
    });
    await p.ok('activity.remove', { token: w.adminA, query: { activityID: ids.panel } });
    const all = await notices(b, 3);
    expect(all[2]).toMatchObject({
      title: 'Your saved session was cancelled',
      body: 'Panel was cancelled',
      url: '/acme/summit/schedule/changes',
    });
    // The other browser saved only the panel: one notification, for the cancellation.
    expect((await notices(other, 1)).map((n) => n.body)).toEqual(['Panel was cancelled']);
    await settle();
    expect(await notices(b, 3)).toHaveLength(3);
    expect(await notices(other, 1)).toHaveLength(1);

    // Signed with the platform's VAPID key, kept a day, urgent.
    const [{ publicKey }] = await p.ok('push.key');
    const first = push.received.find((r) => r.path === new URL(b.endpoint).pathname)!;
    expect(first.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w.-]+, k=${publicKey}$`));
    // The JWT's subject is VAPID_SUBJECT, its audience the push service's origin.
    const jwt = /t=([\w-]+)\.([\w-]+)\./.exec(String(first.headers.authorization))![2];
    expect(JSON.parse(Buffer.from(jwt, 'base64url').toString('utf8'))).toMatchObject({
      sub: SUBJECT,
      aud: push.origin,
    });
    expect(first.headers.ttl).toBe('86400');
    expect(first.headers.urgency).toBe('high');
  });

  it('a write that moves several saved sessions sends one notification that names them all', async () => {
    const b = browser(push.origin, `delay-${kind}`);
    expect((await bind(b, `${ids.keynote},${ids.workshop}`)).status).toBe(200);
    await p.ok('activity.delay', { token: w.adminA, query: { activityID: ids.workshop, minutes: 30, subsequent: 1 } });
    const [n] = await notices(b, 1);
    expect(n.title).toBe('2 of your saved sessions changed');
    expect(n.body.split('\n')).toEqual(['Opening keynote moved to 14:30, Room A', 'Workshop moved to 11:30, Room B']);
    // No page sent: the site's home.
    expect(n.url).toBe('/');
    await settle();
    expect(await notices(b, 1)).toHaveLength(1);
  });

  it('a hidden event notifies no one, as its changes reach no one outside it', async () => {
    const b = browser(push.origin, `hidden-${kind}`);
    expect((await bind(b, ids.closing)).status).toBe(200);
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: '0' } });
    await edit(ids.closing, 'location', 'Backstage');
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: '1' } });
    await settle();
    expect(await notices(b, 0)).toEqual([]);
    await edit(ids.closing, 'location', 'Main hall');
    expect((await notices(b, 1)).map((n) => n.body)).toEqual(['Closing moved to Main hall']);
  });

  it('binding again replaces the saved sessions; push.dismiss needs the auth secret', async () => {
    const b = browser(push.origin, `rebind-${kind}`);
    const [first] = (await bind(b, ids.keynote)).data;
    const again = await bind(b, ids.workshop);
    expect(again.data[0].pushID).toBe(first.pushID);
    await edit(ids.keynote, 'location', 'Room C');
    await edit(ids.workshop, 'location', 'Room D');
    expect((await notices(b, 1)).map((n) => n.body)).toEqual(['Workshop moved to Room D']);

    const dismiss = (auth: string, endpoint = b.endpoint) =>
      p.call('push.dismiss', { query: { eventID }, body: { endpoint, auth } });
    const stranger = browser(push.origin, 'x');
    expect((await dismiss(stranger.auth)).text).toBe('404 push subscription not found');
    expect((await dismiss(b.auth, stranger.endpoint)).text).toBe('404 push subscription not found');
    expect((await dismiss(b.auth)).status).toBe(200);
    expect((await dismiss(b.auth)).status).toBe(404);
    await edit(ids.workshop, 'location', 'Room E');
    await settle();
    expect(await notices(b, 1)).toHaveLength(1);
  });

  it('a push service answering 410 deletes the subscription', async () => {
    const b = browser(push.origin, `gone-${kind}`);
    push.answer.set(new URL(b.endpoint).pathname, 410);
    const [row] = (await bind(b, ids.keynote)).data;
    await edit(ids.keynote, 'location', 'Room F');
    await notices(b, 1);
    for (let i = 0; i < 100; i++) {
      const left = await p.db.selectFrom('webPush').select('pushID').where('pushID', '=', Number(row.pushID)).execute();
      if (left.length === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(
      await p.db.selectFrom('webPush').select('pushID').where('pushID', '=', Number(row.pushID)).execute(),
    ).toEqual([]);
    expect(
      await p.db.selectFrom('webPushActivity').select('activityID').where('pushID', '=', Number(row.pushID)).execute(),
    ).toEqual([]);
  });

  it.each([
    [
      'an endpoint on another host',
      { endpoint: 'https://169.254.169.254/latest' },
      '400 endpoint must be the address of a known push service',
    ],
    ['an endpoint that is no address', { endpoint: 'not a url' }, '400 endpoint must be an https:// address'],
    [
      'an endpoint with a password',
      { endpoint: 'http://u:p@127.0.0.1/x' },
      '400 endpoint must not carry a user name or password',
    ],
    ['a file: endpoint', { endpoint: 'file:///etc/passwd' }, '400 endpoint must be an https:// address'],
    [
      'too many ids',
      { activityIDs: Array.from({ length: 201 }, (_, i) => i + 1).join(',') },
      '400 activityIDs must be at most 200 ids',
    ],
    ['ids that are not ids', { activityIDs: '1,x' }, '400 activityIDs must be positive integers separated by commas'],
    ['a short auth secret', { auth: 'AAAA' }, '400 auth must be 16 bytes in base64url'],
    ['a key that is not a point', { p256dh: 'A'.repeat(87) }, '400 p256dh must be an uncompressed P-256 key'],
    [
      'a page that is an address',
      { page: 'https://evil.example/x' },
      '400 page must be a path such as /company/event/schedule',
    ],
    ['an unknown event', { eventID: '99999' }, '404 event not found'],
  ])('refuses %s', async (_label, change, line) => {
    const b = browser(push.origin, 'bad');
    const { eventID: target = eventID, ...body } = change as Record<string, string>;
    const r = await p.call('push.bind', {
      query: { eventID: target },
      body: { endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth, activityIDs: ids.keynote, ...body },
    });
    expect(r.text).toBe(line);
  });

  it('a hidden event is not found, a private one needs its grant, an ended one takes no more', async () => {
    const b = browser(push.origin, `gate-${kind}`);
    const other = w.eventB.eventID;
    const body = { endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth, activityIDs: '1' };
    await p.ok('event.edit', {
      token: w.operator,
      query: { eventID: other, key: 'accessCode' },
      body: { value: '4321' },
    });
    await p.ok('event.edit', { token: w.operator, query: { eventID: other, key: 'public' }, body: { value: '0' } });
    expect((await p.call('push.bind', { query: { eventID: other }, body })).status).toBe(403);
    await p.ok('event.edit', { token: w.operator, query: { eventID: other, key: 'visible' }, body: { value: '0' } });
    expect((await p.call('push.bind', { query: { eventID: other }, body })).text).toBe('404 event not found');
    await p.ok('event.edit', { token: w.operator, query: { eventID: other, key: 'visible' }, body: { value: '1' } });
    await p.ok('event.edit', { token: w.operator, query: { eventID: other, key: 'public' }, body: { value: '1' } });
    await p.ok('event.edit', { token: w.operator, query: { eventID: other, key: 'dateEnd' }, body: { value: '1000' } });
    expect((await p.call('push.bind', { query: { eventID: other }, body })).text).toBe('409 this event has ended');
  });

  it('the per-address cap answers 429', async () => {
    const q = await startTestPlatform(kind, {
      WEBPUSH_HOSTS: '127.0.0.1',
      WEBPUSH_ALLOW_HTTP: '1',
      WEBPUSH_MAX_PER_NET: '2',
    });
    try {
      const v = await world(q);
      const call = (b: Browser) =>
        q.call('push.bind', {
          query: { eventID: v.eventA.eventID },
          body: { endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth, activityIDs: '1' },
        });
      const [one, two, three] = ['c1', 'c2', 'c3'].map((n) => browser(push.origin, n));
      expect((await call(one)).status).toBe(200);
      expect((await call(two)).status).toBe(200);
      expect((await call(three)).text).toBe('429 too many push subscriptions from this address for this event');
      // A browser already bound binds again.
      expect((await call(one)).status).toBe(200);
    } finally {
      await q.close();
    }
  });

  it('the hourly prune deletes the subscriptions of an event that has ended', async () => {
    const b = browser(push.origin, `ended-${kind}`);
    const [row] = (await bind(b, ids.keynote)).data;
    const still = () => p.db.selectFrom('webPush').select('pushID').where('pushID', '=', Number(row.pushID)).execute();
    await p.platform.jobs.queue.add(p.db, 'change.prune', {});
    await settle();
    expect(await still()).toHaveLength(1);
    await p.ok('event.edit', {
      token: w.adminA,
      query: { eventID, key: 'dateEnd' },
      body: { value: String(Math.floor(Date.now() / 1000) - 60) },
    });
    await p.platform.jobs.queue.add(p.db, 'change.prune', {});
    for (let i = 0; i < 100 && (await still()).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await still()).toEqual([]);
  });
});

describe('which endpoints the platform calls', () => {
  const strict = { hosts: ['fcm.googleapis.com', 'push.services.mozilla.com'], allowHttp: false };
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc', strict, undefined],
    ['https://updates.push.services.mozilla.com/wpush/v2/x', strict, undefined],
    ['https://FCM.googleapis.com/x', strict, undefined],
    ['https://fcm.googleapis.com:8443/x', strict, 'must be an https:// address'],
    ['http://fcm.googleapis.com/x', strict, 'must be an https:// address'],
    ['https://evilfcm.googleapis.com.attacker.example/x', strict, 'must be the address of a known push service'],
    ['https://notfcm.googleapis.com/x', strict, 'must be the address of a known push service'],
    ['https://127.0.0.1/x', strict, 'must be the address of a known push service'],
    ['https://[::1]/x', strict, 'must be the address of a known push service'],
    ['https://user@fcm.googleapis.com/x', strict, 'must not carry a user name or password'],
    ['http://127.0.0.1:9000/x', { hosts: ['127.0.0.1'], allowHttp: true }, undefined],
    [
      'http://10.0.0.1:9000/x',
      { hosts: ['127.0.0.1'], allowHttp: true },
      'must be the address of a known push service',
    ],
  ] as const)('%s', (endpoint, rule, problem) => {
    expect(endpointProblem(endpoint, rule)).toBe(problem);
  });
});

describe('what a notification says', () => {
  const row = (activityID: number, kinds: string, more: Partial<ChangeRow> = {}): ChangeRow => ({
    programChangeID: activityID,
    eventID: 7,
    version: 3,
    at: 0,
    activityID,
    kinds,
    shown: 1,
    name: `Talk ${activityID}`,
    location: 'Room A',
    dateBegin: 1_900_000_000,
    dateEnd: 1_900_003_600,
    speakers: '',
    oldName: `Talk ${activityID}`,
    oldLocation: 'Room A',
    oldDateBegin: 1_900_000_000,
    oldDateEnd: 1_900_003_600,
    oldSpeakers: '',
    ...more,
  });
  const context = { eventID: 7, version: 3, timeZone: 'UTC', page: '/s' };

  it('leaves out what does not notify (a title, speakers) among what does', () => {
    const notice = noticeOf([row(1, 'renamed'), row(2, 'room', { location: 'Room B' }), row(3, 'speakers')], context);
    expect(notice).toEqual({
      title: 'Your saved session changed rooms',
      body: 'Talk 2 moved to Room B',
      url: '/s/2',
      tag: 'podium-7-2',
    });
    expect(noticeOf([row(1, 'renamed'), row(3, 'speakers,renamed')], context)).toBeUndefined();
  });

  it('names five sessions at most, and counts the others (push services take about 4 KB)', () => {
    const rows = Array.from({ length: 200 }, (_, i) =>
      row(i + 1, 'moved', { name: 'N'.repeat(200), dateBegin: 1_900_000_000 + 1800 }),
    );
    const notice = noticeOf(rows, context)!;
    expect(notice.title).toBe('200 of your saved sessions changed');
    expect(notice.body.split('\n')).toHaveLength(6);
    expect(notice.body.split('\n')[5]).toBe('and 195 more');
    expect(Buffer.byteLength(JSON.stringify(notice))).toBeLessThan(3000);
  });

  it('names the day when a session moves to another one, in the event time zone', () => {
    const moved = row(1, 'moved', { dateBegin: 1_900_000_000 + 86_400 });
    expect(noticeOf([moved], { ...context, timeZone: 'America/New_York' })?.body).toMatch(
      /^Talk 1 moved to \w{3} \d\d:\d\d, Room A$/,
    );
    expect(noticeOf([row(1, 'moved', { dateBegin: 1_900_000_000 + 1800 })], context)?.body).toBe(
      'Talk 1 moved to 18:16, Room A',
    );
  });
});
