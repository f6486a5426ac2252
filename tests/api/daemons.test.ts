import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  STORES,
  freshStore,
  operatorWithCompany,
  startTestPlatform,
  world,
  type TestPlatform,
  type World,
} from '../helpers/platform.ts';
import { STYLES, client, type Style } from '../helpers/operations.ts';
import { killAll, startPodiumProcess, until } from '../helpers/processes.ts';
import { seedAttendees } from '../../src/platform/seed/attendees.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { daemonHandlers } from '../../src/platform/daemons/run.ts';
import { DAEMON_JOB } from '../../src/platform/resources/daemon/targets.ts';
import { silentLogger } from '../../src/platform/jobs/queue.ts';

// Bulk daemons (daemon.bulk, daemon.find; docs/api/daemons.md): each target's items run through the single
// operation as the caller, per item; progress and per-item refusals; limits; IDOR; a worker killed halfway.

describe.each(STORES)('bulk daemons on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventID: string;
  let companyID: string;
  let people: number[];
  let activityID: string;
  let otherActivityID: string;
  let otherPersonID: number;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { DAEMON_MAX_ITEMS: '50', DAEMON_BATCH: '3' });
    w = await world(p);
    eventID = w.eventA.eventID;
    companyID = w.companyA.companyID;
    people = [];
    for (let i = 0; i < 6; i++) {
      const personID = await p.person(`d${i}@podium.test`, PASSWORD);
      await p.enrol(Number(eventID), personID, { email: `d${i}@podium.test`, approved: 1 });
      people.push(personID);
    }
    const act = (token: string, ev: string, name: string) =>
      p.ok('activity.create', { token, query: { eventID: ev }, body: { name } });
    activityID = (await act(w.adminA, eventID, 'Workshop'))[0].activityID;
    otherActivityID = (await act(w.adminB, w.eventB.eventID, 'Elsewhere'))[0].activityID;
    otherPersonID = await p.person('elsewhere@podium.test', PASSWORD);
    await p.enrol(Number(w.eventB.eventID), otherPersonID, {});
  }, 60_000);
  afterAll(() => p?.close());

  const bulk = (style: Style, token: string, query: Record<string, string | number>, body: Record<string, string>) =>
    client(p, style).call('daemon.bulk', { token, query: { eventID, ...query }, body });
  const finished = async (daemonID: string, token = w.adminA) => {
    let row: Record<string, unknown> | undefined;
    await until(async () => {
      [row] = await p.ok('daemon.find', { token, query: { eventID, operation: 'bulk', target: 'all', daemonID } });
      return row?.state === 'done' || row?.state === 'failed';
    }, `daemon ${daemonID}`);
    return row as Record<string, any>;
  };
  const queued = async (style: Style, query: Record<string, string | number>, body: Record<string, string>) => {
    const r = await bulk(style, w.adminA, query, body);
    expect(r.text.slice(0, 200)).toMatch(/^\{/);
    const [row] = r.data as Record<string, any>[];
    expect(row).toMatchObject({ operation: 'bulk', eventID, companyID, errors: [] });
    expect(['queued', 'running', 'done']).toContain(row.state);
    return finished(row.daemonID);
  };

  it.each(STYLES)('binds many people to an activity, one item at a time, listing each refusal (%s)', async (style) => {
    const a = (await p.ok('activity.create', { token: w.adminA, query: { eventID }, body: { name: `Bind ${style}` } }))[0]; // prettier-ignore
    const items = [people[0], people[1], otherPersonID, 999_999, people[2]];
    const done = await queued(
      style,
      { target: 'activity.person.bind', targetID: a.activityID, resourceType: 'person' },
      { resources: JSON.stringify(items) },
    );
    expect(done).toMatchObject({
      state: 'done',
      total: '5',
      progress: '5',
      applied: '3',
      failed: '2',
      target: 'activity.person.bind',
      targetID: a.activityID,
    });
    // The refusals are the single operation's own lines, in item order.
    const single = await p.call('activity.person.bind', {
      token: w.adminA,
      query: { activityID: a.activityID, personID: otherPersonID },
    });
    expect(done.errors).toEqual([
      { item: '2', resource: String(otherPersonID), error: single.text },
      { item: '3', resource: '999999', error: expect.stringMatching(/^404 /) },
    ]);
    const bound = await p.ok('activity.person.find', { token: w.adminA, query: { activityID: a.activityID, selection: 'all' } }); // prettier-ignore
    expect(bound.map((r) => Number(r.personID)).sort()).toEqual([people[0], people[1], people[2]].sort());
    // Each applied item recorded its change, and the daemon its own.
    const changes = await p.db.selectFrom('change').select(['operation', 'objectID', 'ids']).where('eventID', '=', Number(eventID)).execute(); // prettier-ignore
    const binds = changes.filter((c) => c.operation === 'activity.person.bind' && JSON.parse(c.ids || '{}').activityID === Number(a.activityID)); // prettier-ignore
    expect(binds.map((c) => c.objectID).sort()).toEqual([people[0], people[1], people[2]].sort());
    for (const op of ['daemon.bulk', 'daemon.start', 'daemon.done'])
      expect(changes.some((c) => c.operation === op && c.objectID === Number(done.daemonID))).toBe(true);
  });

  it('runs every target of the table through its single operation', async () => {
    const tagID = (await p.ok('tag.create', { token: w.adminA, query: { eventID }, body: { name: 'Hot' } }))[0].tagID;
    const listID = (await p.ok('list.create', { token: w.adminA, query: { eventID }, body: { name: 'VIP' } }))[0]
      .listID;
    const email = (
      await p.ok('event.email.create', { token: w.adminA, query: { eventID }, body: { subject: 'Hi', text: 'Hello {{firstName}}' } })
    )[0]; // prettier-ignore
    const before = p.mails().length;
    const cases: [Record<string, string>, Record<string, string>, () => Promise<void>][] = [
      [
        { target: 'activity.tag.bind', targetID: tagID, resourceType: 'activity' },
        { resources: activityID },
        async () => {
          const tags = await p.ok('activity.tag.find', { token: w.adminA, query: { activityID } });
          expect(tags.map((t) => t.tagID)).toContain(tagID);
        },
      ],
      [
        { target: 'list.person.bind', targetID: listID, resourceType: 'person' },
        { resources: `${people[3]},${people[4]}` },
        async () => {
          const members = await p.ok('list.person.find', { token: w.adminA, query: { listID } });
          expect(members.map((m) => Number(m.personID)).sort()).toEqual([people[3], people[4]].sort());
        },
      ],
      [
        { target: 'event.person.bind', resourceType: 'person' },
        { resources: JSON.stringify([{ name: 'New One', username: 'new1@podium.test' }, { name: 'New Two', username: 'new2@podium.test', role: 'CTO' }]) }, // prettier-ignore
        async () => {
          const found = await p.ok('event.person.find', { token: w.adminA, query: { eventID, selection: 'all', query: 'New', queryKey: 'name' } }); // prettier-ignore
          expect(found.map((f) => f.name).sort()).toEqual(['New One', 'New Two']);
        },
      ],
      [
        { target: 'event.person.operate', resourceType: 'person' },
        { resources: `${people[3]},${people[4]}`, extra: JSON.stringify({ key: 'role', value: 'Speaker' }) },
        async () => {
          for (const personID of [people[3], people[4]]) {
            const [a] = await p.ok('event.person.get', { token: w.adminA, query: { eventID, personID } });
            expect(a.role).toBe('Speaker');
          }
        },
      ],
      [
        { target: 'event.email.send', targetID: email.eventEmailID, resourceType: 'person' },
        { resources: `${people[0]},${people[5]}` },
        async () => {
          let sent: string[] = [];
          await until(async () => {
            sent = p
              .mails()
              .slice(before)
              .filter((m) => /^Subject: Hi$/m.test(m));
            return sent.length >= 2;
          }, 'the two e-mails');
          expect(sent.map((m) => /^To: (.*)$/m.exec(m)?.[1]).sort()).toEqual(['d0@podium.test', 'd5@podium.test']);
        },
      ],
      [
        { target: 'activity.tag.dismiss', targetID: activityID, resourceType: 'tag' },
        { resources: tagID },
        async () => {
          const tags = await p.ok('activity.tag.find', { token: w.adminA, query: { activityID } });
          expect(tags.map((t) => t.tagID)).not.toContain(tagID);
        },
      ],
      [
        { target: 'event.person.dismiss', resourceType: 'person' },
        { resources: String(people[5]) },
        async () => {
          await client(p, 'rpc').fail('event.person.get', { token: w.adminA, query: { eventID, personID: people[5] } }, 404); // prettier-ignore
        },
      ],
    ];
    for (const [query, body, check] of cases) {
      const done = await queued('rpc', query, body);
      expect(done.errors, query.target).toEqual([]);
      expect(done.state).toBe('done');
      await check();
    }
    // The e-mail again to one who had it: the single operation's 409, per item.
    const again = await queued('rest', { target: 'event.email.send', targetID: email.eventEmailID, resourceType: 'person' }, { resources: String(people[0]) }); // prettier-ignore
    expect(again.errors).toEqual([{ item: '0', resource: String(people[0]), error: '409 the attendee has had this e-mail already' }]); // prettier-ignore
  });

  it.each(STYLES)('refuses an oversize or malformed bulk before queuing anything (%s)', async (style) => {
    const base = { target: 'activity.person.bind', targetID: activityID, resourceType: 'person' };
    const count = async () => (await p.db.selectFrom('daemon').select('daemonID').execute()).length;
    const before = await count();
    const fail = (query: Record<string, string>, body: Record<string, string>, status: number, message: RegExp) =>
      client(p, style).fail('daemon.bulk', { token: w.adminA, query: { eventID, ...query }, body }, status, message);
    const many = Array.from({ length: 51 }, (_, i) => i + 1);
    await fail(base, { resources: JSON.stringify(many) }, 413, /^413 resources holds 51 items, at most 50/);
    await fail(base, { resources: many.join(',') }, 413, /at most 50 are allowed/);
    await fail(base, { resources: '[]' }, 400, /^400 resources must hold at least one item$/);
    await fail(base, { resources: '1,x' }, 400, /^400 resources item 1 must be a positive integer/);
    await fail(base, { resources: '[1, {"a":1}]' }, 400, /^400 resources item 1 must be a positive integer/);
    await fail(base, { resources: '[1' }, 400, /^400 resources must be a JSON array/);
    await fail(
      { ...base, resourceType: 'tag' },
      { resources: '1' },
      400,
      /^400 resourceType must be person or activity/,
    );
    await fail({ ...base, targetID: '' }, { resources: '1' }, 400, /^400 targetID cannot be empty/);
    await fail({ ...base, target: 'event.remove' }, { resources: '1' }, 400, /^400 target must be one of/);
    await fail({ ...base, resourceID: '3' }, { resources: '1' }, 400, /^400 resourceID is not used/);
    await fail(base, { resources: '1', extra: '{"key":"x"}' }, 400, /^400 extra key is not used by activity\.person\.bind/); // prettier-ignore
    // Each item is validated by the single operation's own schemas, with its place named.
    await fail(
      { target: 'event.person.bind', resourceType: 'person' },
      { resources: JSON.stringify([{ name: 'A', username: 'a@podium.test' }, { username: 'b@podium.test' }]) },
      400,
      /^400 resources item 1: name cannot be empty$/,
    );
    await fail(
      { target: 'event.person.bind', resourceType: 'person' },
      { resources: JSON.stringify([{ name: 'A', username: 'a@podium.test', level: 'high' }]) },
      400,
      /^400 resources item 0: level /,
    );
    await fail(
      { target: 'event.person.bind', resourceType: 'person' },
      { resources: JSON.stringify([{ name: 'A', username: 'a@podium.test', password: 'x' }]) },
      400,
      /^400 resources item 0 has an unknown field password$/,
    );
    expect(await count()).toBe(before);
  });

  it.each(STYLES)('IDOR: other tenants get what a missing event or object gets (%s)', async (style) => {
    const c = client(p, style);
    const query = { target: 'activity.person.bind', targetID: activityID, resourceType: 'person' };
    const body = { resources: String(people[0]) };
    const missing = await c.call('daemon.bulk', { token: w.adminA, query: { ...query, eventID: '999999' }, body });
    expect(missing.text).toBe('404 event not found');
    // Company B's admin, on event A: the same line as an event that does not exist.
    const other = await c.call('daemon.bulk', { token: w.adminB, query: { ...query, eventID }, body });
    expect(other.text).toBe(missing.text);
    // companyID of another company than the event's: the same.
    const wrong = await c.call('daemon.bulk', { token: w.adminA, query: { ...query, eventID, companyID: w.companyB.companyID }, body }); // prettier-ignore
    expect(wrong.text).toBe(missing.text);
    const findMissing = await c.call('daemon.find', { token: w.adminA, query: { eventID: '999999', operation: 'bulk', target: 'all' } }); // prettier-ignore
    const findOther = await c.call('daemon.find', { token: w.adminB, query: { eventID, operation: 'bulk', target: 'all' } }); // prettier-ignore
    expect(findOther.text).toBe(findMissing.text);
    // Event-scope and attendee tokens: no back office.
    for (const token of [w.eventAdminEventScope, w.attendee, w.staff]) {
      await c.fail('daemon.bulk', { token, query: { ...query, eventID }, body }, 403);
      await c.fail('daemon.find', { token, query: { eventID, operation: 'bulk', target: 'all' } }, 403);
    }
    // A's admin naming event B's activity (or its attendee) in items: refused as an unknown id, per item.
    const [row] = await c.ok('daemon.bulk', {
      token: w.adminA,
      query: { eventID, target: 'activity.person.bind', targetID: String(w.attendeeID), resourceType: 'activity' },
      body: { resources: `${otherActivityID},999999` },
    });
    const done = await finished(row.daemonID);
    expect(done.errors.map((e: { error: string }) => e.error)).toEqual([
      '404 activity not found',
      '404 activity not found',
    ]);
    // And nothing of event B changed.
    const inB = await p.ok('activity.person.find', { token: w.adminB, query: { activityID: otherActivityID, selection: 'all' } }); // prettier-ignore
    expect(inB).toEqual([]);
    // Company B's admin never sees A's daemons, whatever daemonID it names.
    const seen = await c.ok('daemon.find', { token: w.adminB, query: { eventID: w.eventB.eventID, operation: 'bulk', target: 'all', daemonID: row.daemonID } }); // prettier-ignore
    expect(seen).toEqual([]);
  });

  it('stops a daemon whose asker lost the event, with why, and runs nothing more', async () => {
    const asker = await p.person('leaving@podium.test', PASSWORD);
    // A daemon of someone who is no admin of the event (any more): stored as daemon.bulk stores one, and
    // run by the job's handler itself (no worker races it: no job was added).
    const { daemonID } = await p.db
      .insertInto('daemon')
      .values({
        companyID: Number(companyID),
        eventID: Number(eventID),
        personID: asker,
        scope: 'system',
        operation: 'bulk',
        target: 'activity.person.bind',
        targetID: Number(activityID),
        resourceType: 'person',
        resources: JSON.stringify([people[3]]),
        state: 'queued',
        total: 1,
        date: 1,
      })
      .returning('daemonID')
      .executeTakeFirstOrThrow();
    const config = loadConfig({ DATABASE_URL: 'file::memory:' });
    const handlers = daemonHandlers({ db: p.db, config, queue: { add: async () => true }, logger: silentLogger });
    await handlers[DAEMON_JOB]({ daemonID }, { id: 'x', name: DAEMON_JOB, attempt: 1 });
    const [row] = await p.ok('daemon.find', { token: w.adminA, query: { eventID, operation: 'bulk', target: 'all', daemonID } }); // prettier-ignore
    expect(row).toMatchObject({ state: 'failed', error: '404 event not found', progress: '0', applied: '0' });
    // Related but no admin: 403.
    await p.enrol(Number(eventID), asker, { level: 1 });
    await p.db.updateTable('daemon').set({ state: 'queued' }).where('daemonID', '=', daemonID).execute();
    await handlers[DAEMON_JOB]({ daemonID }, { id: 'x', name: DAEMON_JOB, attempt: 1 });
    const [again] = await p.ok('daemon.find', { token: w.adminA, query: { eventID, operation: 'bulk', target: 'all', daemonID } }); // prettier-ignore
    expect(again).toMatchObject({ state: 'failed', error: '403 permission level too low', progress: '0' });
    const bound = await p.ok('activity.person.find', { token: w.adminA, query: { activityID, selection: 'all' } });
    expect(bound.map((b) => Number(b.personID))).not.toContain(people[3]);
  });

  it('filters by target and state; pages', async () => {
    const all = await p.ok('daemon.find', { token: w.adminA, query: { eventID, operation: 'bulk', target: 'all', limit: 100 } }); // prettier-ignore
    expect(all.length).toBeGreaterThan(5);
    const binds = await p.ok('daemon.find', { token: w.adminA, query: { eventID, operation: 'bulk', target: 'activity.tag.bind' } }); // prettier-ignore
    expect(binds.every((d) => d.target === 'activity.tag.bind')).toBe(true);
    expect(binds).toHaveLength(1);
    const pending = await p.ok('daemon.find', { token: w.adminA, query: { eventID, operation: 'bulk', target: 'all', state: 'pending' } }); // prettier-ignore
    expect(pending).toEqual([]);
    const page = await p.call('daemon.find', { token: w.adminA, query: { eventID, operation: 'bulk', target: 'all', limit: 2, paginated: 1 } }); // prettier-ignore
    expect(page.data).toHaveLength(2);
    await client(p, 'rest').fail('daemon.find', { token: w.adminA, query: { eventID, operation: 'report', target: 'all' } }, 400, /^400 operation must be bulk$/); // prettier-ignore
  });
});

// A bulk daemon whose worker is killed (SIGKILL) halfway: the API process only adds jobs (JOBS_WORK=0), a
// `podium worker` runs the daemon and is killed once some items are done; a second worker takes the job
// when its lease runs out and the daemon completes — every item applied exactly once (one enrolment and
// one change each, no refusal from a second try).
const ITEMS = 600;

describe.each(STORES)('a bulk daemon whose worker is killed halfway, on %s', (kind) => {
  let p: TestPlatform;
  let drop: () => Promise<void>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const store = await freshStore(kind);
    drop = store.drop;
    env = {
      DATABASE_URL: store.url,
      SITE: '0',
      SEED_DEMO: '0',
      HOST: '127.0.0.1',
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      JOBS_WORK: '0',
      JOBS_LEASE_SECONDS: '5',
      JOBS_POLL_MS: '100',
      JOBS_RETRY_SECONDS: '1',
      DAEMON_BATCH: '100',
    };
    p = await startTestPlatform(kind, env);
  }, 60_000);

  afterAll(async () => {
    await killAll();
    await p?.close();
    await drop?.();
  });

  it('completes after a restart, each item applied once', { timeout: 300_000 }, async () => {
    const { operator: token, companyID } = await operatorWithCompany(p, 'Restart');
    const [{ eventID }] = await p.ok('company.event.bind', {
      token,
      query: { companyID },
      body: { name: 'Big', nickname: 'big' },
    });
    await seedAttendees(p.db, Number(eventID), ITEMS, 'restart');
    const ids = (
      await p.db.selectFrom('eventPerson').select('personID').where('eventID', '=', Number(eventID)).execute()
    ).map((r) => r.personID);
    expect(ids).toHaveLength(ITEMS);
    const [{ activityID }] = await p.ok('activity.create', {
      token,
      query: { eventID },
      body: { name: 'Everyone', capacity: String(ITEMS * 2) },
    });

    const first = await startPodiumProcess('worker', env);
    const [queued] = await p.ok('daemon.bulk', {
      token,
      query: { eventID, target: 'activity.person.bind', targetID: activityID, resourceType: 'person' },
      body: { resources: JSON.stringify(ids) },
    });
    const state = () =>
      p.db
        .selectFrom('daemon')
        .select(['state', 'done', 'applied', 'failed'])
        .where('daemonID', '=', Number(queued.daemonID))
        .executeTakeFirstOrThrow();
    await until(async () => (await state()).done >= 150, 'the first items', 120_000, 20);
    await first.kill();
    const cut = await state();
    expect(cut.state).toBe('running');
    expect(cut.done).toBeLessThan(ITEMS);

    await startPodiumProcess('worker', env);
    await until(async () => ['done', 'failed'].includes((await state()).state), 'the daemon', 240_000, 100);
    const [done] = await p.ok('daemon.find', {
      token,
      query: { eventID, operation: 'bulk', target: 'activity.person.bind', daemonID: queued.daemonID },
    });
    expect(done).toMatchObject({ state: 'done', total: String(ITEMS), progress: String(ITEMS), applied: String(ITEMS), failed: '0', errors: [] }); // prettier-ignore
    const enrolled = await p.db
      .selectFrom('activityPerson')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('activityID', '=', Number(activityID))
      .executeTakeFirstOrThrow();
    expect(Number(enrolled.n)).toBe(ITEMS);
    // One change per item: an item applied twice would have recorded a second.
    const changes = await p.db
      .selectFrom('change')
      .select('ids')
      .where('operation', '=', 'activity.person.bind')
      .where('eventID', '=', Number(eventID))
      .execute();
    const people = changes.map((c) => (JSON.parse(c.ids) as { personID: number }).personID);
    expect(people).toHaveLength(ITEMS);
    expect(new Set(people).size).toBe(ITEMS);
  });
});
