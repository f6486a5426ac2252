import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { client, STYLES } from '../helpers/operations.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { until } from '../helpers/processes.ts';
import { RETRY_OFF } from '../../src/platform/resources/webhook/operations/delivery/retry.ts';
import {
  deliveriesByID,
  insertDeliveries,
  pruneDeliveries,
  recordDelivered,
} from '../../src/platform/resources/webhook/repository.ts';

// Webhooks (issue 14) on both stores, against a receiver on loopback that verifies every signature
// with the Standard Webhooks reference library: registration in both call styles, who may see what,
// deliveries fed from the change log by the worker (never the request), retries after 500 and
// Retry-After, 410, bypassWebhook, rotation with two signatures, catch-up with webhook.events.

const ENV = {
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_ALLOW_HTTP: '1',
  WEBHOOK_RETRY_MS: '100,100,100',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_FEED_MS: '50',
  JOBS_POLL_MS: '50',
  // A job that throws runs again after 1 s (2 s at most): a batch sent again would show within the tests.
  JOBS_RETRY_SECONDS: '1',
  JOBS_RETRY_MAX_SECONDS: '2',
};

const strings = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.every(strings)
    : v && typeof v === 'object'
      ? Object.values(v).every(strings)
      : typeof v === 'string';

describe.each(STORES)('webhooks on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let rx: Receiver;
  let activityID: string;

  beforeAll(async () => {
    p = await startTestPlatform(kind, ENV);
    w = await world(p);
    rx = await startReceiver();
    activityID = await p.insertRow(
      'activity',
      { eventID: Number(w.eventA.eventID), name: 'Opening', dateBegin: 1700000000, dateEnd: 1700003600 },
      'activityID',
    );
  });
  afterAll(async () => {
    await p?.close();
    await rx?.close();
  });

  // Each test's webhooks go when it ends, passed or failed, and the receiver starts the next one empty: a
  // test that failed half-way must not leave the next its deliveries or its scripted answers.
  const registered: string[] = [];
  afterEach(async () => {
    for (const webhookID of registered.splice(0))
      await p.call('webhook.remove', { token: w.adminA, query: { webhookID } });
    rx.received.length = 0;
    rx.script = [];
    rx.delayMs = 0;
  });

  /** A webhook of company A (or event A) to `url` (the receiver's), removed after the test; answers it with its secret. */
  /** A new visible event of company A (a public form needs it visible). */
  async function visibleEvent(name: string, nickname: string): Promise<string> {
    const [{ eventID }] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name, nickname: `${nickname}-${Date.now()}` },
    });
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
    return eventID;
  }
  async function register(query: Record<string, string>, body: Record<string, string> = {}, url = rx.url) {
    const [row] = await p.ok('webhook.create', { token: w.adminA, query, body: { url, ...body } });
    registered.push(row.webhookID);
    if (url === rx.url) rx.secrets = [...rx.secrets, row.secret];
    return row;
  }
  const deliveries = (webhookID: string, selection = 'all') =>
    p.ok('webhook.delivery.find', { token: w.adminA, query: { webhookID, selection } });
  async function settled(webhookID: string, count: number) {
    for (let i = 0; i < 300; i++) {
      const rows = await deliveries(webhookID);
      if (rows.length >= count && rows.every((d) => d.state !== 'pending')) return rows;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('deliveries did not settle');
  }

  describe.each(STYLES)('registration (%s)', (style) => {
    it('creates with a whsec_ secret shown only in the answer; find, get, edit, remove', async () => {
      const c = client(p, style);
      const [made] = await c.ok('webhook.create', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { url: 'http://127.0.0.1:1/x', types: 'activity.edit, event.edit,activity.edit' },
      });
      expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(made).toMatchObject({ types: 'activity.edit,event.edit', active: '1', eventID: '' });
      const [got] = await c.ok('webhook.get', { token: w.adminA, query: { webhookID: made.webhookID } });
      expect(got.secret).toBeUndefined();
      expect(JSON.stringify(await p.db.selectFrom('webhook').selectAll().execute())).not.toContain(made.secret);
      const found = await c.ok('webhook.find', { token: w.adminA, query: { companyID: w.companyA.companyID } });
      expect(found.map((r) => r.webhookID)).toContain(made.webhookID);
      expect(found.every((r) => r.secret === undefined)).toBe(true);
      const [edited] = await c.ok('webhook.edit', {
        token: w.adminA,
        query: { webhookID: made.webhookID, key: 'active' },
        body: { value: '0' },
      });
      expect(edited.active).toBe('0');
      await c.fail(
        'webhook.edit',
        { token: w.adminA, query: { webhookID: made.webhookID, key: 'secret' }, body: { value: 'x' } },
        400,
      );
      await c.fail(
        'webhook.edit',
        { token: w.adminA, query: { webhookID: made.webhookID, key: 'types' }, body: { value: 'not a type' } },
        400,
      );
      await c.ok('webhook.remove', { token: w.adminA, query: { webhookID: made.webhookID } });
      await c.fail('webhook.get', { token: w.adminA, query: { webhookID: made.webhookID } }, 404);
    });

    // A misspelt type would be kept and never hear anything: only what a change is delivered as passes.
    it.each([
      ['activity.edt', 400, 'activity.edt'],
      ['activity.find', 400, 'activity.find'], // reads record no change
      ['webhook.edit', 400, 'webhook.edit'], // a webhook's own set-up is no one's news
      ['form.respondRegistration', 400, 'form.respondRegistration'], // delivered as event.person.bind
      ['event.person.bind,ping,coupon.create', 200, ''],
      ['download.ready,budget.create', 200, ''], // a job's change; a later module's write
      ['download.create', 200, ''], // a report asked for (format=excel-daemon), recorded by the dispatcher
      ['sender.check', 200, ''], // a job's change: a sender's domain checked
      ['event.cname.check', 200, ''], // a job's change: an event's custom domain checked
      ['sanity.check', 400, 'sanity.check'], // a job's bookkeeping, recorded quiet
      ['chat.create', 400, 'chat.create'], // messages between people are not the company's news
    ])('types %s: create and edit answer %i', async (types, status, named) => {
      const c = client(p, style);
      const create = {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { url: 'http://127.0.0.1:1/t', types },
      };
      const [plain] = await c.ok('webhook.create', { ...create, body: { url: create.body.url } });
      const edit = { token: w.adminA, query: { webhookID: plain.webhookID, key: 'types' }, body: { value: types } };
      if (status === 200) {
        expect((await c.ok('webhook.create', create))[0].types).toBe(types);
        expect((await c.ok('webhook.edit', edit))[0].types).toBe(types);
      } else {
        for (const r of [await c.call('webhook.create', create), await c.call('webhook.edit', edit)]) {
          expect(r.status).toBe(status);
          expect(r.text).toBe(`400 types names no change a webhook hears: ${named} (docs/webhooks.md lists them)`);
        }
      }
    });

    it('answers 404 to other tenants and 403 to an event-scope token for every operation', async () => {
      const c = client(p, style);
      const [made] = await c.ok('webhook.create', {
        token: w.adminA,
        query: { eventID: w.eventA.eventID },
        body: { url: 'http://127.0.0.1:1/x' },
      });
      const byID = { webhookID: made.webhookID };
      const calls: [string, Record<string, string>, Record<string, string>?][] = [
        ['webhook.get', byID],
        ['webhook.edit', { ...byID, key: 'url' }, { value: 'http://127.0.0.1:2/' }],
        ['webhook.remove', byID],
        ['webhook.rotate', byID],
        ['webhook.test', byID],
        ['webhook.events', byID],
        ['webhook.delivery.find', byID],
      ];
      for (const [name, query, body] of calls) {
        const r = await c.fail(name, { token: w.adminB, query, body }, 404, /webhook not found/);
        expect(r.text).not.toContain(w.companyA.companyID);
        // Related to the event (an attendee): told it may not, as everywhere else.
        await c.fail(name, { token: w.attendeeSystem, query, body }, 403);
        await c.fail(name, { token: w.eventAdminEventScope, query, body }, 403);
      }
      await c.fail('webhook.find', { token: w.adminB, query: { companyID: w.companyA.companyID } }, 404);
      await c.fail(
        'webhook.create',
        { token: w.adminB, query: { eventID: w.eventA.eventID }, body: { url: rx.url } },
        404,
      );
      await c.fail(
        'webhook.create',
        { token: w.externalA, query: { companyID: w.companyA.companyID }, body: { url: rx.url } },
        403,
      );
      // An event admin (system token) may register for the event, not for the company.
      const [own] = await c.ok('webhook.create', {
        token: w.eventAdminSystem,
        query: { eventID: w.eventA.eventID },
        body: { url: 'http://127.0.0.1:1/x' },
      });
      await c.ok('webhook.remove', { token: w.eventAdminSystem, query: { webhookID: own.webhookID } });
      await c.fail(
        'webhook.create',
        { token: w.eventAdminSystem, query: { companyID: w.companyA.companyID }, body: { url: rx.url } },
        403,
      );
      await c.ok('webhook.remove', { token: w.adminA, query: byID });
    });
  });

  it('delivers a signed payload per change from the worker, retrying 500s and honouring Retry-After', async () => {
    const hook = await register({ companyID: w.companyA.companyID }, { types: 'activity.edit' });
    rx.script = [500, [503, { 'retry-after': '1' }]];
    const started = Date.now();
    await p.ok('activity.edit', { token: w.adminA, query: { activityID, key: 'name' }, body: { value: 'Keynote' } });
    const [got] = await rx.until(1);
    // Two failures: 100 ms (+ jitter), then at least the 1 s the receiver asked for.
    expect(got.at - started).toBeGreaterThanOrEqual(1000);
    expect(got.verifiedBy).toBe(rx.secrets.length - 1);
    expect(got.body).toMatchObject({
      type: 'activity.edit',
      companyID: w.companyA.companyID,
      eventID: w.eventA.eventID,
      ids: { activityID, eventID: w.eventA.eventID },
      object: { activityID, name: 'Keynote' },
    });
    expect(strings(got.body)).toBe(true);
    expect(Buffer.byteLength(got.raw)).toBeLessThan(20 * 1024);
    expect(got.id).toBe(`msg_${hook.webhookID}_${got.body.changeID as string}`);
    const [d] = await settled(hook.webhookID, 1);
    expect(d.state).toBe('delivered');
    const list = d.attemptList as unknown as Record<string, string>[];
    expect(list.map((a) => a.status)).toEqual(['500', '503', '200']);
    expect(list[0].response).toBe('answer 500');
    expect(Number(list[0].latencyMs)).toBeGreaterThanOrEqual(0);
    // Times are Unix seconds, as everywhere in the API (the spec's Date Time), though kept in ms.
    const span = [Math.floor(started / 1000), Math.ceil(Date.now() / 1000)];
    for (const t of [d.createdAt, ...list.map((a) => a.at)]) {
      expect(t).toMatch(/^\d{10}$/);
      expect(Number(t)).toBeGreaterThanOrEqual(span[0]);
      expect(Number(t)).toBeLessThanOrEqual(span[1]);
    }
    expect(d.nextAt).toBe('');
    expect(rx.duplicates()).toBe(0);
  });

  // The feeder adds one job per batch of deliveries (src/platform/webhooks/deliver.ts): a receiver that
  // hangs and fails must neither hold up the others of its batch nor have them sent again.
  it('a batch settles each delivery on its own: one slow, failing receiver delays and re-sends no other', async () => {
    const rx2 = await startReceiver();
    try {
      const slow = [await register({ companyID: w.companyA.companyID }, { types: 'activity.edit' }, rx2.url)];
      rx2.secrets = [slow[0].secret];
      // Longer than WEBHOOK_TIMEOUT_MS (1 s here): no answer, tried again alone.
      rx2.delayMs = 5000;
      const fast = await register({ companyID: w.companyA.companyID }, { types: 'activity.edit' });
      const row = (webhookID: string) =>
        p.db
          .selectFrom('webhookDelivery')
          .select(['state', 'attempts'])
          .where('webhookID', '=', Number(webhookID))
          .executeTakeFirst();
      await p.ok('activity.edit', { token: w.adminA, query: { activityID, key: 'name' }, body: { value: 'Batch' } });
      await rx.until(1);
      // Settled while the slow one of its batch still waits for its answer.
      for (let i = 0; i < 200 && (await row(fast.webhookID))?.state !== 'delivered'; i++)
        await new Promise((r) => setTimeout(r, 5));
      const seen = [(await row(fast.webhookID))?.state, Number((await row(slow[0].webhookID))?.attempts)];
      expect(seen).toEqual(['delivered', 0]);
      rx2.delayMs = 0;
      await rx2.until(1);
      const [a] = await settled(slow[0].webhookID, 1);
      expect((a.attemptList as unknown as Record<string, string>[]).map((x) => x.status)).toEqual(['0', '200']);
      const [b] = await settled(fast.webhookID, 1);
      expect((b.attemptList as unknown as Record<string, string>[]).map((x) => x.status)).toEqual(['200']);
      // Longer than a batch job's retry (JOBS_RETRY_SECONDS): a batch that ran again would have sent it again.
      await new Promise((r) => setTimeout(r, 2500));
      expect(rx.received.map((r) => r.body.changeID)).toEqual([a.changeID]);
      expect(rx2.received.map((r) => r.body.changeID)).toEqual([a.changeID]);
    } finally {
      await rx2.close();
    }
  });

  it('a webhook of every type hears only types it could have asked for (not the address checks that follow a registration)', async () => {
    const eventID = await visibleEvent('Every type', 'every');
    await register({ eventID });
    await p.ok('form.respondRegistration', {
      query: { eventID },
      body: { firstName: 'Ana', lastName: 'Lima', email: 'ana@every.test', feedbackContent: '[]' },
    });
    // The attendee's address is checked by a job, which records its change; a write after it is
    // delivered after it (the feed keeps the log's order), so once that one is here, the check was fed.
    const checked = () =>
      p.db.selectFrom('change').select('changeID').where('eventID', '=', Number(eventID)).where('operation', 'like', 'sanity.%').executeTakeFirst(); // prettier-ignore
    await until(async () => (await checked()) !== undefined, 'the address check');
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'name' }, body: { value: 'Every type, renamed' } }); // prettier-ignore
    await until(() => rx.received.some((g) => g.body.type === 'event.edit'), 'event.edit delivered');
    const { operations } = await import('../../src/platform/catalog/index.ts');
    const { deliveredTypes } = await import('../../src/platform/resources/webhook/fields.ts');
    const known = deliveredTypes(operations);
    const types = rx.received.map((g) => String(g.body.type));
    expect(types).toContain('event.person.bind');
    expect(types.filter((t) => !known.has(t))).toEqual([]);
  });

  // Nobody signed in: the change has no caller's company, and takes its event's (change/log.ts).
  it('a registration and an application through the public form, with no token, are delivered', async () => {
    const eventID = await visibleEvent('Open doors', 'open');
    const hook = await register({ eventID }, { types: 'event.person.bind,event.applicant.bind' });
    const form = (email: string) =>
      p.ok('form.respondRegistration', {
        query: { eventID },
        body: { firstName: 'Ana', lastName: 'Lima', email, feedbackContent: '[]' },
      });
    const [attendee] = await form('ana@open.test');
    await p.ok('form.edit', { token: w.adminA, query: { eventID, key: 'approvalRequired' }, body: { value: 1 } });
    const [applicant] = await form('rui@open.test');
    // Both sent again with no token: answered without whose they are (docs/api/registration.md "Double
    // submit"), delivered naming the person as the first ones.
    const repeats = [await form('ana@open.test'), await form('rui@open.test')].map(([r]) => [r.duplicate, r.personID]);
    expect(repeats).toEqual([['1', ''], ['1', '']]); // prettier-ignore
    // This webhook's own deliveries (signed with its secret): a late one of the test before may come too.
    const mine = (g: { verifiedBy?: number }) => g.verifiedBy === rx.secrets.indexOf(hook.secret);
    await until(() => rx.received.filter(mine).length >= 4, 'the four deliveries');
    const got = rx.received.filter(mine);
    // Deliveries are jobs: they may arrive in any order (their changeIDs keep the order).
    const delivered = got.map((g) => [g.body.type, (g.body.ids as Record<string, string>).personID]);
    expect(delivered.sort()).toEqual([
      ['event.applicant.bind', applicant.personID],
      ['event.applicant.bind', applicant.personID],
      ['event.person.bind', attendee.personID],
      ['event.person.bind', attendee.personID],
    ]);
    expect(await settled(hook.webhookID, 4)).toHaveLength(4);
    const logged = await p.db
      .selectFrom('change')
      .select('companyID')
      .where('eventID', '=', Number(eventID))
      .where('operation', 'in', ['form.respondRegistration', 'event.applicant.bind'])
      .execute();
    expect(logged.map((r) => Number(r.companyID))).toEqual(logged.map(() => Number(w.companyA.companyID)));
    expect(logged).toHaveLength(4);
  });

  it('a report asked for and made is delivered as download.create and download.ready, with its record', async () => {
    await register({ companyID: w.companyA.companyID }, { types: 'download.create,download.ready' });
    const [queued] = await p.ok('event.person.find', {
      token: w.adminA,
      query: { eventID: w.eventA.eventID, selection: 'all', format: 'excel-daemon' },
    });
    const got = await rx.until(2);
    expect(got.map((g) => g.body.type)).toEqual(['download.create', 'download.ready']);
    for (const g of got)
      expect(g.body.object).toMatchObject({ downloadID: queued.downloadID, type: 'event.person.find' });
    // Read at delivery: the second one is the finished report.
    expect((got[1].body.object as Record<string, string>).state).toBe('ready');
  });

  it('bypassWebhook=1 on activity.person.bind and dismiss delivers nothing; without it they deliver', async () => {
    const hook = await register(
      { eventID: w.eventA.eventID },
      { types: 'activity.person.bind,activity.person.dismiss' },
    );
    const q = { activityID, personID: w.attendeeID };
    await p.ok('activity.person.bind', { token: w.adminA, query: { ...q, bypassWebhook: 1 } });
    await p.ok('activity.person.dismiss', { token: w.adminA, query: { ...q, bypassWebhook: 1 } });
    await p.ok('activity.person.bind', { token: w.adminA, query: q });
    const got = await rx.until(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(got.map((g) => g.body.type)).toEqual(['activity.person.bind']);
    expect(got[0].body).toMatchObject({ ids: { activityID, personID: String(w.attendeeID) } });
    expect(await deliveries(hook.webhookID)).toHaveLength(1);
  });

  // A bulk form names no attendee of its own: each item is a change (kernel/changes.ts changesOf), as if
  // it had been bound alone, so a receiver hears of every enrollment, not of the first.
  it('a JSON-content bind delivers one activity.person.bind per item, each naming its activity and person', async () => {
    const hook = await register({ eventID: w.eventA.eventID }, { types: 'activity.person.bind' });
    const second = await p.insertRow(
      'activity',
      { eventID: Number(w.eventA.eventID), name: 'Workshop', dateBegin: 1700007200, dateEnd: 1700010800 },
      'activityID',
    );
    const items = [activityID, second].map((a) => ({ activityID: a, personID: String(w.attendeeID) }));
    await p.ok('activity.person.bind', {
      token: w.adminA,
      query: { eventID: w.eventA.eventID },
      body: { content: JSON.stringify(items) },
    });
    const got = await rx.until(2);
    await settled(hook.webhookID, 2);
    const seen = got.map((g) => [
      g.body.type,
      (g.body.ids as Record<string, string>).activityID,
      (g.body.ids as Record<string, string>).personID,
    ]);
    expect(seen.sort()).toEqual(items.map((i) => ['activity.person.bind', i.activityID, i.personID]).sort());
    // Each object is its own seat, read by activity.person.get.
    expect(got.map((g) => (g.body.object as Record<string, string>).activityID).sort()).toEqual(
      [activityID, second].sort(),
    );
    await p.ok('activity.person.dismiss', {
      token: w.adminA,
      query: { eventID: w.eventA.eventID, bypassWebhook: 1 },
      body: { content: JSON.stringify(items) },
    });
  });

  it('410 Gone turns the webhook off and says so in webhook.get; other 4xx fail at once', async () => {
    const hook = await register({ companyID: w.companyA.companyID }, { types: 'ping' });
    rx.script = [404];
    await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
    const [failed] = await settled(hook.webhookID, 1);
    expect(failed).toMatchObject({ state: 'failed', attempts: '1', type: 'ping' });
    expect(await deliveries(hook.webhookID, 'failed')).toHaveLength(1);
    // The organizer retries it: delivered this time.
    await p.ok('webhook.delivery.retry', { token: w.adminA, query: { deliveryID: failed.deliveryID } });
    await rx.until(1);
    expect(rx.received[0].body).toMatchObject({ type: 'ping', webhookID: hook.webhookID });
    rx.script = [410];
    await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
    await settled(hook.webhookID, 2);
    const [got] = await p.ok('webhook.get', { token: w.adminA, query: { webhookID: hook.webhookID } });
    expect(got).toMatchObject({ active: '0', disabledReason: '410' });
    // Off, a retry would fail at once: refused, saying how to turn it on; the delivery stays as it was.
    const refused = await p.call('webhook.delivery.retry', {
      token: w.adminA,
      query: { deliveryID: failed.deliveryID },
    });
    expect(refused.text).toBe(`409 ${RETRY_OFF}`);
    expect((await deliveries(hook.webhookID, 'all')).find((d) => d.deliveryID === failed.deliveryID)?.state).toBe(
      'delivered',
    );
  });

  it('rotate: both secrets sign for 24 h; webhook.events replays the same signed payloads in order', async () => {
    const hook = await register({ eventID: w.eventA.eventID }, { types: 'activity.edit' });
    // One at a time: a payload shows the object as it is when its delivery is made (docs/webhooks.md).
    for (const [i, name] of ['One', 'Two', 'Three'].entries()) {
      await p.ok('activity.edit', { token: w.adminA, query: { activityID, key: 'name' }, body: { value: name } });
      await rx.until(i + 1);
    }
    // The receiver has the third before the worker has written that it was delivered (CI read between).
    await settled(hook.webhookID, 3);
    const [rotated] = await p.ok('webhook.rotate', { token: w.adminA, query: { webhookID: hook.webhookID } });
    expect(rotated.secret).not.toBe(hook.secret);
    expect(Number(rotated.oldSecretUntil) - Date.now() / 1000).toBeGreaterThan(23 * 3600);
    const events = await p.ok('webhook.events', { token: w.adminA, query: { webhookID: hook.webhookID } });
    expect(events.map((e) => JSON.parse(e.payload).object.name)).toEqual(['One', 'Two', 'Three']);
    const sent = new Map(rx.received.map((r) => [r.id, r.raw]));
    for (const e of events) {
      const headers = { 'webhook-id': e.messageID, 'webhook-timestamp': e.timestamp, 'webhook-signature': e.signature };
      expect(e.signature.split(' ')).toHaveLength(2);
      for (const secret of [hook.secret, rotated.secret])
        expect(() => new Webhook(secret).verify(e.payload, headers)).not.toThrow();
      expect(sent.get(e.messageID)).toBe(e.payload);
    }
    const after = await p.ok('webhook.events', {
      token: w.adminA,
      query: { webhookID: hook.webhookID, after: events[0].changeID, limit: 1 },
    });
    expect(after.map((e) => e.changeID)).toEqual([events[1].changeID]);
  });

  // A receiver down for a week is turned off after 5 days; what changed while it was off must still be
  // there for webhook.events (issue 14, outcome 5), though nothing is sent.
  it('a webhook that is off gets held deliveries: nothing is sent, webhook.events replays them', async () => {
    const hook = await register({ eventID: w.eventA.eventID }, { types: 'activity.edit' });
    const edit = (value: string) =>
      p.ok('activity.edit', { token: w.adminA, query: { activityID, key: 'name' }, body: { value } });
    await edit('Before');
    await rx.until(1);
    await settled(hook.webhookID, 1);
    await p.ok('webhook.edit', {
      token: w.adminA,
      query: { webhookID: hook.webhookID, key: 'active' },
      body: { value: '0' },
    });
    await edit('While off');
    let held: Record<string, string>[] = [];
    for (let i = 0; i < 300 && held.length === 0; i++) {
      held = await deliveries(hook.webhookID, 'held');
      if (held.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ attempts: '0', nextAt: '' });
    // Its payload is made by a worker (as for a delivery): the replay waits for it.
    let events: Record<string, string>[] = [];
    for (let i = 0; i < 300 && events.length < 2; i++) {
      events = await p.ok('webhook.events', { token: w.adminA, query: { webhookID: hook.webhookID } });
      if (events.length < 2) await new Promise((r) => setTimeout(r, 50));
    }
    expect(events.map((e) => JSON.parse(e.payload).object.name)).toEqual(['Before', 'While off']);
    const e = events[1];
    const headers = { 'webhook-id': e.messageID, 'webhook-timestamp': e.timestamp, 'webhook-signature': e.signature };
    expect(() => new Webhook(hook.secret).verify(e.payload, headers)).not.toThrow();
    expect(e.messageID).toBe(`msg_${hook.webhookID}_${e.changeID}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.received.map((r) => r.id)).not.toContain(e.messageID);
    expect((await deliveries(hook.webhookID, 'held'))[0].state).toBe('held');
  });

  // The worker writes first successes of a batch in two statements (src/platform/webhooks/deliver.ts):
  // each delivery must keep its own body, and one whose body was made earlier keeps that one.
  it('recordDelivered settles many deliveries at once, each with its own body', async () => {
    const hook = await register({ companyID: w.companyA.companyID }, { types: 'ping' });
    const webhookID = Number(hook.webhookID);
    const rows = [1, 2, 3].map((n) => ({
      webhookID,
      changeID: 900_000 + n,
      type: 'activity.edit',
      payload: n === 3 ? 'made before' : '',
      createdAt: 1,
      nextAt: 1,
      state: 'pending' as const,
    }));
    const ids = await insertDeliveries(p.db, rows);
    const attempt = { at: 2, status: 204, latencyMs: 3, response: '' };
    await recordDelivered(p.db, [
      { deliveryID: ids[0], attempt, payload: '{"n":1}' },
      { deliveryID: ids[1], attempt, payload: '{"n":2}' },
      { deliveryID: ids[2], attempt },
    ]);
    const stored = await deliveriesByID(p.db, ids);
    expect(stored.map((d) => [d.payload, d.state, Number(d.attempts), d.nextAt])).toEqual([
      ['{"n":1}', 'delivered', 1, null],
      ['{"n":2}', 'delivered', 1, null],
      ['made before', 'delivered', 1, null],
    ]);
    const attempts = await p.db
      .selectFrom('webhookAttempt')
      .select('deliveryID')
      .where('deliveryID', 'in', ids)
      .execute();
    expect(attempts).toHaveLength(3);
  });

  it('forgets deliveries and their attempts after 30 days (the hourly prune)', async () => {
    const hook = await register({ companyID: w.companyA.companyID }, { types: 'ping' });
    await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
    await settled(hook.webhookID, 1);
    const day = 24 * 3600 * 1000;
    const attempts = () => p.db.selectFrom('webhookAttempt').select('attemptID').execute();
    const before = (await attempts()).length;
    expect(await pruneDeliveries(p.db, Date.now() - 30 * day)).toBe(0);
    expect(await deliveries(hook.webhookID)).toHaveLength(1);
    expect(await pruneDeliveries(p.db, Date.now() + 1000)).toBeGreaterThanOrEqual(1);
    expect(await deliveries(hook.webhookID)).toHaveLength(0);
    expect((await attempts()).length).toBeLessThan(before);
  });

  it('follows no redirect (a 3xx fails at once) and retries a receiver that does not answer in time', async () => {
    const hook = await register({ companyID: w.companyA.companyID }, { types: 'ping' });
    rx.script = [[302, { location: rx.url }]];
    await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
    const [redirected] = await settled(hook.webhookID, 1);
    expect(redirected).toMatchObject({ state: 'failed', attempts: '1' });
    expect((redirected.attemptList as unknown as Record<string, string>[])[0].status).toBe('302');
    expect(rx.received).toHaveLength(0);
    // Slower than WEBHOOK_TIMEOUT_MS (1 s here): no answer, tried again.
    rx.delayMs = 1500;
    await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
    for (let i = 0; i < 100; i++) {
      const [d] = await deliveries(hook.webhookID);
      if (Number(d.attempts) >= 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    rx.delayMs = 0;
    const [slow] = await settled(hook.webhookID, 2);
    const list = slow.attemptList as unknown as Record<string, string>[];
    expect(list[0]).toMatchObject({ status: '0', response: 'no answer within 1000 ms' });
    expect(Number(list[0].latencyMs)).toBeGreaterThanOrEqual(990);
    expect(slow.state).toBe('delivered');
  });
});
