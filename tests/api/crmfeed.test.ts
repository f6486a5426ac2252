import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { startFakeCrm, type FakeCrm, type Misbehaviour } from '../helpers/crm.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

// The CRM feed (issue 17, docs/api/crmfeed.md): 'crmfeed.link' (ext.), 'crmfeed.get', 'crmfeed.unlink',
// 'crmfeed.getCommunities', 'crmfeed.getGroups', 'crmfeed.setCommunity', 'crmfeed.unsetCommunity',
// 'crmfeed.setGroup', 'crmfeed.unsetGroup', and 'company.person.sync' (issue 16) — both stores, both
// styles, against a fake provider on loopback (tests/helpers/crm.ts).

const PROVIDER = 'FakeCRM';
const UNKNOWN_EVENT = '987654321';

describe.each(STORES)('crmfeed on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let crm: FakeCrm;
  let rx: Receiver;
  let seq = 0;

  beforeAll(async () => {
    crm = await startFakeCrm();
    rx = await startReceiver();
    p = await startTestPlatform(kind, {
      CRM_URL: crm.url,
      CRM_NAME: PROVIDER,
      CRM_TOKEN: 'platform-key-0001',
      CRM_TIMEOUT_MS: '1000',
      CRM_MAX_BYTES: '65536',
      CRM_BATCH: '2',
      JOBS_POLL_MS: '50',
      JOBS_RETRY_SECONDS: '1',
      JOBS_RETRY_MAX_SECONDS: '1',
      JOBS_MAX_ATTEMPTS: '2',
      // A webhook receiver on loopback hears the end of each sync.
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_ALLOW_HTTP: '1',
      WEBHOOK_FEED_MS: '50',
    });
    w = await world(p);
    crm.communities = [
      { id: 'c1', name: 'Lisbon', url: 'https://crm.test/c/1' },
      { id: 'c2', name: 'Porto', url: 'https://crm.test/c/2' },
    ];
    crm.groups = { '': [{ id: 'g0', name: 'Everyone' }], c1: [{ id: 'g1', name: 'VIP' }], c2: [{ id: 'g2', name: 'Press' }] }; // prettier-ignore
  });
  afterAll(async () => {
    await p?.close();
    await crm?.close();
    await rx?.close();
  });

  const changes = async (operation: string) =>
    (
      await p.db
        .selectFrom('change')
        .select(['objectID', 'companyID', 'eventID'])
        .where('operation', '=', operation)
        .orderBy('changeID')
        .execute()
    ).map((r) => ({ objectID: String(r.objectID), companyID: String(r.companyID), eventID: String(r.eventID) }));

  describe.each(STYLES)('%s', (style) => {
    const c = () => client(p, style);
    /** A new event of company A, and a token the fake provider accepts, linked to it. */
    const newEvent = async () => {
      seq++;
      const [e] = await c().ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: `CRM ${seq}`, nickname: `crm-${style}-${seq}` },
      });
      return e.eventID;
    };
    const linked = async () => {
      const eventID = await newEvent();
      const token = `tok-${kind}-${style}-${seq}-abcdWXYZ`;
      crm.tokens.add(token);
      const [row] = await c().ok('crmfeed.link', { token: w.adminA, query: { eventID }, body: { token } });
      return { eventID, token, row };
    };
    /** A linked event that is company A's only one: a sync of A pushes it alone (earlier tests' links go). */
    const linkedAlone = async () => {
      const l = await linked();
      await p.db.deleteFrom('crmLink').where('companyID', '=', Number(w.companyA.companyID)).where('eventID', '!=', Number(l.eventID)).execute(); // prettier-ignore
      return l;
    };
    const get = async (eventID: string) => (await c().ok('crmfeed.get', { token: w.adminA, query: { eventID } }))[0];

    it('links an event with its token, shows it masked and sealed, relinks, unlinks', async () => {
      const eventID = await newEvent();
      expect(await c().ok('crmfeed.get', { token: w.adminA, query: { eventID } })).toEqual([]);
      const token = `secret-${kind}-${style}-token-9876`;
      const r = await c().call('crmfeed.link', { token: w.adminA, query: { eventID }, body: { token } });
      expect(r.status, r.text).toBe(200);
      expect(r.text).not.toContain(token);
      expect(r.data[0]).toMatchObject({ eventID, provider: PROVIDER, token: '****9876', communityId: '', groupId: '', syncStatus: '', syncPushed: '0' }); // prettier-ignore
      const stored = await p.db.selectFrom('crmLink').selectAll().where('eventID', '=', Number(eventID)).executeTakeFirstOrThrow(); // prettier-ignore
      expect(stored.token).not.toContain(token);
      expect(stored.token).not.toContain(Buffer.from(token).toString('base64'));
      expect(await get(eventID)).toEqual(r.data[0]);
      // Linking again replaces the token.
      const [again] = await c().ok('crmfeed.link', { token: w.adminA, query: { eventID }, body: { token: 'another-token-of-the-event-5555' } }); // prettier-ignore
      expect(again.token).toBe('****5555');
      // A short token shows nothing of itself.
      expect((await c().ok('crmfeed.link', { token: w.adminA, query: { eventID }, body: { token: 'short' } }))[0].token).toBe('****'); // prettier-ignore
      const [gone] = await c().ok('crmfeed.unlink', { token: w.adminA, query: { eventID } });
      expect(gone).toMatchObject({ eventID, token: '****' });
      expect(await c().ok('crmfeed.get', { token: w.adminA, query: { eventID } })).toEqual([]);
      await c().fail('crmfeed.unlink', { token: w.adminA, query: { eventID } }, 409, /^409 no CRM connected to this event$/); // prettier-ignore
      // Every write recorded its change, of the event, in company A.
      for (const op of ['crmfeed.link', 'crmfeed.unlink'])
        expect(await changes(op)).toContainEqual({ objectID: eventID, eventID, companyID: w.companyA.companyID });
    });

    it.each([
      ['a token with a space', { token: 'two words' }, /^400 token must be visible ASCII characters \(no spaces\)$/],
      ['a token with a line break', { token: 'a\r\nX-Evil: 1' }, /^400 token must be visible ASCII/],
      ['no token', { token: '' }, /^400 token cannot be empty$/],
    ])('crmfeed.link refuses %s', async (_label, body, message) => {
      await c().fail('crmfeed.link', { token: w.adminA, query: { eventID: w.eventA.eventID }, body }, 400, message);
    });

    it('lists the communities and groups the token sees, asked of the provider with the token and the platform key', async () => {
      const { eventID, token } = await linked();
      const from = crm.requests.length;
      const communities = await c().ok('crmfeed.getCommunities', { token: w.adminA, query: { eventID } });
      expect(communities).toEqual([
        { communityId: 'c1', communityName: 'Lisbon', communityUrl: 'https://crm.test/c/1' },
        { communityId: 'c2', communityName: 'Porto', communityUrl: 'https://crm.test/c/2' },
      ]);
      expect(await c().ok('crmfeed.getGroups', { token: w.adminA, query: { eventID } })).toEqual([{ groupId: 'g0', groupName: 'Everyone' }]); // prettier-ignore
      await c().ok('crmfeed.setCommunity', { token: w.adminA, query: { eventID, ...communities[0] } });
      expect(await c().ok('crmfeed.getGroups', { token: w.adminA, query: { eventID } })).toEqual([{ groupId: 'g1', groupName: 'VIP' }]); // prettier-ignore
      const asked = crm.requests.slice(from);
      expect(asked.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`)).toEqual([
        'GET /communities {}',
        'GET /groups {}',
        'GET /groups {"communityId":"c1"}',
      ]);
      for (const r of asked) {
        expect(r.headers.authorization).toBe(`Bearer ${token}`);
        expect(r.headers['x-platform-token']).toBe('platform-key-0001');
      }
    });

    it('stores the chosen community and group; another community clears the group; unset forgets them; each write is a change', async () => {
      const { eventID } = await linked();
      const set = { communityId: 'c1', communityUrl: 'https://crm.test/c/1', communityName: 'Lisbon' };
      const [a] = await c().ok('crmfeed.setCommunity', { token: w.adminA, query: { eventID, ...set } });
      expect(a).toMatchObject(set);
      const [b] = await c().ok('crmfeed.setGroup', { token: w.adminA, query: { eventID, groupId: 'g1', groupName: 'VIP' } }); // prettier-ignore
      expect(b).toMatchObject({ ...set, groupId: 'g1', groupName: 'VIP' });
      // The same community again keeps the group; another clears it.
      expect((await c().ok('crmfeed.setCommunity', { token: w.adminA, query: { eventID, ...set } }))[0].groupId).toBe('g1'); // prettier-ignore
      const [other] = await c().ok('crmfeed.setCommunity', { token: w.adminA, query: { eventID, communityId: 'c2', communityUrl: 'https://crm.test/c/2', communityName: 'Porto' } }); // prettier-ignore
      expect(other).toMatchObject({ communityId: 'c2', groupId: '', groupName: '' });
      await c().ok('crmfeed.setGroup', { token: w.adminA, query: { eventID, groupId: 'g2', groupName: 'Press' } });
      expect((await c().ok('crmfeed.unsetGroup', { token: w.adminA, query: { eventID } }))[0]).toMatchObject({ communityId: 'c2', groupId: '', groupName: '' }); // prettier-ignore
      await c().ok('crmfeed.setGroup', { token: w.adminA, query: { eventID, groupId: 'g2', groupName: 'Press' } });
      expect((await c().ok('crmfeed.unsetCommunity', { token: w.adminA, query: { eventID } }))[0]).toMatchObject({ communityId: '', communityUrl: '', communityName: '', groupId: '', groupName: '' }); // prettier-ignore
      expect(await get(eventID)).toMatchObject({ communityId: '', groupId: '' });
      for (const op of ['crmfeed.setCommunity', 'crmfeed.unsetCommunity', 'crmfeed.setGroup', 'crmfeed.unsetGroup'])
        expect(await changes(op)).toContainEqual({ objectID: eventID, eventID, companyID: w.companyA.companyID });
    });

    it.each([
      ['no communityName', { communityId: 'c1', communityUrl: 'https://crm.test/c/1' }, /^400 communityName cannot be empty$/], // prettier-ignore
      ['a communityUrl that is not one', { communityId: 'c1', communityUrl: 'javascript:alert(1)', communityName: 'x' }, /^400 communityUrl must be an http or https URL$/], // prettier-ignore
      ['a communityId with a control character', { communityId: 'c\u00011', communityUrl: 'https://crm.test/', communityName: 'x' }, /^400 communityId must be text without control characters$/], // prettier-ignore
    ])('crmfeed.setCommunity refuses %s', async (_label, query, message) => {
      await c().fail('crmfeed.setCommunity', { token: w.adminA, query: { eventID: w.eventA.eventID, ...query } }, 400, message); // prettier-ignore
    });

    it('an event with no link: the provider is not asked, every choice is 409', async () => {
      const eventID = await newEvent();
      const from = crm.requests.length;
      const calls: [string, Record<string, string>][] = [
        ['crmfeed.getCommunities', {}],
        ['crmfeed.getGroups', {}],
        ['crmfeed.setCommunity', { communityId: 'c1', communityUrl: 'https://crm.test/c/1', communityName: 'Lisbon' }],
        ['crmfeed.unsetCommunity', {}],
        ['crmfeed.setGroup', { groupId: 'g1', groupName: 'VIP' }],
        ['crmfeed.unsetGroup', {}],
        ['crmfeed.unlink', {}],
      ];
      for (const [name, query] of calls)
        await c().fail(name, { token: w.adminA, query: { eventID, ...query } }, 409, /^409 no CRM connected to this event$/); // prettier-ignore
      expect(crm.requests.length).toBe(from);
    });

    const failures: [string, Misbehaviour, RegExp][] = [
      ['answers 500', 500, /^502 CRM provider FakeCRM answered HTTP 500$/],
      ['answers 503', 503, /^502 CRM provider FakeCRM answered HTTP 503$/],
      ['refuses the token', 401, /^502 CRM provider FakeCRM answered HTTP 401 \(it refused the event's token\)$/],
      ['answers garbage', 'garbage', /^502 CRM provider FakeCRM answered something that is not JSON$/],
      ['answers JSON of another shape', 'shape', /^502 CRM provider FakeCRM answered JSON of an unexpected shape$/],
      ['answers too much', 'huge', /^502 CRM provider FakeCRM answered more than 65536 bytes$/],
      ['answers too late', 'slow', /^502 CRM provider FakeCRM did not (answer|finish its answer) within 1000 ms$/],
      ['redirects', 'redirect', /^502 CRM provider FakeCRM answered a redirect, which is not followed$/],
      ['is down (drops the connection)', 'reset', /^502 CRM provider FakeCRM cannot be reached$/],
    ];
    it.each(failures)('a provider that %s is a 502 line naming it, never a 500', async (_label, m, line) => {
      const { eventID } = await linked();
      for (const name of ['crmfeed.getCommunities', 'crmfeed.getGroups']) {
        crm.script = [m];
        const r = await c().call(name, { token: w.adminA, query: { eventID } });
        expect(`${r.status} ${r.text}`).toMatch(new RegExp(`^502 ${line.source.slice(1)}`));
      }
      crm.script = [];
    });

    it("another company's admin, an unrelated event-scope token and a missing event get the same 404; lower levels 403", async () => {
      const { eventID } = await linked();
      const calls: [string, Record<string, string>, Record<string, string>?][] = [
        ['crmfeed.get', {}],
        ['crmfeed.unlink', {}],
        ['crmfeed.getCommunities', {}],
        ['crmfeed.getGroups', {}],
        ['crmfeed.setCommunity', { communityId: 'c1', communityUrl: 'https://crm.test/c/1', communityName: 'Lisbon' }],
        ['crmfeed.unsetCommunity', {}],
        ['crmfeed.setGroup', { groupId: 'g1', groupName: 'VIP' }],
        ['crmfeed.unsetGroup', {}],
        ['crmfeed.link', {}, { token: 'stolen-token-0000' }],
      ];
      const from = crm.requests.length;
      for (const [name, query, body] of calls) {
        const answer = async (token: string | undefined, event: string) => {
          const r = await c().call(name, { token, query: { eventID: event, ...query }, body });
          return `${r.status} ${r.text}`;
        };
        const missing = await answer(w.adminA, UNKNOWN_EVENT);
        expect(missing, name).toBe('404 404 event not found');
        expect(await answer(w.adminB, eventID), name).toBe(missing);
        expect(await answer(w.adminB, UNKNOWN_EVENT), name).toBe(missing);
        expect(await answer(undefined, eventID), name).toMatch(/^401 /);
        // Event A1's attendee, staff and its event-scope admin (downgraded to user, spec §5.3): event A1 only.
        for (const token of [w.attendee, w.staff, w.eventAdminEventScope, w.externalA])
          expect(await answer(token, w.eventA.eventID), name).toMatch(/^40[34] /);
      }
      // Nothing reached the provider, and the link is as it was.
      expect(crm.requests.length).toBe(from);
      expect((await get(eventID)).token).toBe('****WXYZ');
    });

    /** Waits until the event's sync ended (done or failed) and answers its link. */
    const settled = async (eventID: string, timeoutMs = 20_000) => {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const row = await get(eventID);
        if (row.syncStatus === 'done' || row.syncStatus === 'failed') return row;
        if (Date.now() > end) throw new Error(`sync of ${eventID} still ${row.syncStatus} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    it("company.person.sync pushes exactly the people of the company's linked events, as they gave themselves to each", async () => {
      const { eventID, token } = await linked();
      await c().ok('crmfeed.setCommunity', { token: w.adminA, query: { eventID, communityId: 'c1', communityUrl: 'https://crm.test/c/1', communityName: 'Lisbon' } }); // prettier-ignore
      await c().ok('crmfeed.setGroup', { token: w.adminA, query: { eventID, groupId: 'g1', groupName: 'VIP' } });
      // Five people in the event; one of them gave company B's event other details, and one is only B's.
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const personID = await p.person(`crm-${kind}-${style}-${seq}-${i}@podium.test`, PASSWORD);
        await p.enrol(Number(eventID), personID, { firstName: `First${i}`, company: 'Given to A', email: `a${i}-${seq}@given.test` }); // prettier-ignore
        ids.push(personID);
      }
      await p.enrol(Number(w.eventB.eventID), ids[0], { firstName: 'B-ONLY-first', company: 'B-ONLY-company', telephone: '+15550199' }); // prettier-ignore
      const onlyB = await p.person(`crm-only-b-${kind}-${style}-${seq}@podium.test`, PASSWORD);
      await p.enrol(Number(w.eventB.eventID), onlyB, { firstName: 'B-ONLY-person' });
      // Company B links its event too: A's sync must not push it, nor B's token be used.
      crm.tokens.add('b-token-of-company-b-0000');
      await p.ok('crmfeed.link', { token: w.adminB, query: { eventID: w.eventB.eventID }, body: { token: 'b-token-of-company-b-0000' } }); // prettier-ignore

      const [queued] = await c().ok('company.person.sync', { token: w.adminA, query: { companyID: w.companyA.companyID } }); // prettier-ignore
      expect(queued).toMatchObject({ companyID: w.companyA.companyID, syncStatus: 'queued' });
      expect(queued.eventIDs.split(',')).toContain(eventID);
      expect(queued.eventIDs.split(',')).not.toContain(w.eventB.eventID);
      const row = await settled(eventID);
      expect(row).toMatchObject({ syncStatus: 'done', syncPushed: '5', syncTotal: '5', syncError: '' });
      expect(Number(row.syncFinishedAt)).toBeGreaterThanOrEqual(Number(row.syncQueuedAt));
      const mine = [...crm.people.values()].filter((x) => x.externalId.startsWith(`podium-${eventID}-`));
      expect(mine.map((x) => x.personID).sort()).toEqual(ids.map(String).sort());
      for (const x of mine) {
        expect(x).toMatchObject({ company: 'Given to A', communityId: 'c1', groupId: 'g1', token });
        expect(x.firstName).toMatch(/^First\d$/);
      }
      // Nothing of company B's event went anywhere: no B person, no B detail, never B's token.
      const all = [...crm.people.values()];
      expect(JSON.stringify(all)).not.toMatch(/B-ONLY|\+15550199/);
      expect(all.some((x) => x.externalId.startsWith(`podium-${w.eventB.eventID}-`))).toBe(false);
      expect(all.some((x) => x.token === 'b-token-of-company-b-0000')).toBe(false);
      // In batches of CRM_BATCH (2): 2 + 2 + 1, each with its own key.
      const batches = crm.requests.filter((r) => r.path === '/people' && (r.body as { event: { eventID: string } }).event.eventID === eventID); // prettier-ignore
      expect(batches.map((r) => (r.body as { people: unknown[] }).people.length)).toEqual([2, 2, 1]);
      expect(new Set(batches.map((r) => r.headers['idempotency-key'])).size).toBe(3);
      expect(await changes('company.person.sync')).toContainEqual(expect.objectContaining({ companyID: w.companyA.companyID })); // prettier-ignore
      await p.ok('crmfeed.unlink', { token: w.adminB, query: { eventID: w.eventB.eventID } });
    });

    it('a retry after a lost acknowledgement resumes where it stopped and the provider drops the repeat', async () => {
      const { eventID } = await linkedAlone();
      for (let i = 0; i < 3; i++)
        await p.enrol(Number(eventID), await p.person(`crm-retry-${kind}-${style}-${seq}-${i}@podium.test`, PASSWORD));
      const repeats = crm.repeats;
      const before = crm.batches.length;
      // The first batch reaches the provider, but its answer is a 500: the job is tried again.
      crm.pushScript = ['lost'];
      await c().ok('company.person.sync', { token: w.adminA, query: { companyID: w.companyA.companyID } });
      const row = await settled(eventID);
      expect(row).toMatchObject({ syncStatus: 'done', syncPushed: '3', syncTotal: '3' });
      // Two batches kept (2 + 1), the first sent twice with the same key and dropped the second time.
      expect(crm.batches.length - before).toBe(2);
      expect(crm.repeats - repeats).toBe(1);
      const mine = [...crm.people.values()].filter((x) => x.externalId.startsWith(`podium-${eventID}-`));
      expect(mine).toHaveLength(3);
    });

    it('a refusal ends the run as failed with the line naming the provider; so does the last attempt; a new run starts afresh', async () => {
      const { eventID, token } = await linkedAlone();
      await p.enrol(Number(eventID), await p.person(`crm-fail-${kind}-${style}-${seq}@podium.test`, PASSWORD));
      crm.tokens.delete(token);
      await c().ok('company.person.sync', { token: w.adminA, query: { companyID: w.companyA.companyID } });
      expect(await settled(eventID)).toMatchObject({ syncStatus: 'failed', syncPushed: '0', syncError: "CRM provider FakeCRM answered HTTP 401 (it refused the event's token)" }); // prettier-ignore
      crm.tokens.add(token);
      crm.pushScript = [500, 500];
      await c().ok('company.person.sync', { token: w.adminA, query: { companyID: w.companyA.companyID } });
      expect(await settled(eventID)).toMatchObject({ syncStatus: 'failed', syncError: 'CRM provider FakeCRM answered HTTP 500' }); // prettier-ignore
      crm.pushScript = [];
      await c().ok('company.person.sync', { token: w.adminA, query: { companyID: w.companyA.companyID } });
      expect(await settled(eventID)).toMatchObject({ syncStatus: 'done', syncPushed: '1', syncError: '' });
    });

    it('company.person.sync: without companyID every company the caller administers; 409 with no link; others 403/404', async () => {
      await linked();
      const [row] = await c().ok('company.person.sync', { token: w.adminA });
      expect(row.companyID).toBe(w.companyA.companyID);
      // Company B has no linked event now.
      await c().fail('company.person.sync', { token: w.adminB }, 409, /^409 no CRM connected$/);
      await c().fail('company.person.sync', { token: w.adminB, query: { companyID: w.companyB.companyID } }, 409, /^409 no CRM connected$/); // prettier-ignore
      // Another company's, or one that does not exist: the same 404.
      await c().fail('company.person.sync', { token: w.adminB, query: { companyID: w.companyA.companyID } }, 404, /^404 company not found$/); // prettier-ignore
      await c().fail('company.person.sync', { token: w.adminB, query: { companyID: UNKNOWN_EVENT } }, 404, /^404 company not found$/); // prettier-ignore
      await c().fail('company.person.sync', { token: w.externalA, query: { companyID: w.companyA.companyID } }, 403);
      await c().fail('company.person.sync', { token: w.externalA }, 403, /^403 company admin level required$/);
      await c().fail('company.person.sync', { token: w.attendee }, 403);
      await c().fail('company.person.sync', {}, 401);
    });
  });

  // Webhooks hear a sync's end, not only the call that queued it (issue 17): crmfeed.sync.done and
  // crmfeed.sync.fail, with the event's link as crmfeed.get shows it to the webhook's owner.
  it("a webhook hears each event's sync end: crmfeed.sync.done, then crmfeed.sync.fail with the provider's line", async () => {
    const [e] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: 'CRM hook', nickname: `crm-hook-${kind}` },
    });
    const eventID = e.eventID;
    const token = `tok-hook-${kind}-abcdWXYZ`;
    crm.tokens.add(token);
    await p.ok('crmfeed.link', { token: w.adminA, query: { eventID }, body: { token } });
    await p.db.deleteFrom('crmLink').where('companyID', '=', Number(w.companyA.companyID)).where('eventID', '!=', Number(eventID)).execute(); // prettier-ignore
    await p.enrol(Number(eventID), await p.person(`crm-hook-${kind}@podium.test`, PASSWORD));
    const [hook] = await p.ok('webhook.create', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { url: rx.url, types: 'crmfeed.sync.done,crmfeed.sync.fail' },
    });
    rx.secrets = [hook.secret];
    rx.received.length = 0;
    await p.ok('company.person.sync', { token: w.adminA, query: { companyID: w.companyA.companyID } });
    const [done] = await rx.until(1);
    expect(done.verifiedBy).toBe(0);
    expect(done.body).toMatchObject({
      type: 'crmfeed.sync.done',
      companyID: w.companyA.companyID,
      eventID,
      ids: { eventID, companyID: w.companyA.companyID },
      object: { eventID, syncStatus: 'done', syncPushed: '1', syncError: '', token: '****WXYZ' },
    });
    // The provider refuses the token now: the run fails, and the webhook hears that with the line.
    crm.tokens.delete(token);
    await p.ok('company.person.sync', { token: w.adminA, query: { companyID: w.companyA.companyID } });
    const [, failed] = await rx.until(2);
    expect(failed.body).toMatchObject({
      type: 'crmfeed.sync.fail',
      eventID,
      object: { syncStatus: 'failed', syncError: "CRM provider FakeCRM answered HTTP 401 (it refused the event's token)" }, // prettier-ignore
    });
    expect(rx.received.map((r) => r.body.type)).toEqual(['crmfeed.sync.done', 'crmfeed.sync.fail']);
    expect((await changes('crmfeed.sync.done')).filter((c) => c.eventID === eventID)).toEqual([
      { objectID: eventID, companyID: w.companyA.companyID, eventID },
    ]);
    await p.ok('webhook.remove', { token: w.adminA, query: { webhookID: hook.webhookID } });
    await p.ok('crmfeed.unlink', { token: w.adminA, query: { eventID } });
  });
});

describe('crmfeed without a provider (CRM_URL unset)', () => {
  let p: TestPlatform;
  let w: World;
  beforeAll(async () => {
    p = await startTestPlatform('sqlite');
    w = await world(p);
  });
  afterAll(() => p?.close());

  it('nothing can be linked and a sync is 409 no CRM connected', async () => {
    const eventID = w.eventA.eventID;
    await p
      .call('crmfeed.link', { token: w.adminA, query: { eventID }, body: { token: 'any-token-1234' } })
      .then((r) => expect(r.text).toBe('409 no CRM connected: the platform has no CRM provider (CRM_URL)'));
    expect(await p.ok('crmfeed.get', { token: w.adminA, query: { eventID } })).toEqual([]);
    expect((await p.call('company.person.sync', { token: w.adminA })).text).toBe('409 no CRM connected');
  });
});
