// change.subscribe (issue 11 item 6): committed changes as Server-Sent Events, the site's reason to drop
// what it kept. What anyone may hear (a company, and the event when it is open to anyone), resuming
// after Last-Event-ID from the change log, `reset` past the log, the cap on open streams, the heartbeat,
// the end of every stream on shutdown, and a write through one process heard on another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
import { changeMessageWire } from '../../src/shared/wire/change.ts';
import { pruneChanges } from '../../src/platform/resources/change/log.ts';

/** The operation under test (the operation suites find it by this name). */
const OP = 'change.subscribe';
const data = (m: { data: string }) => changeMessageWire.parse(JSON.parse(m.data));

describe.each(STORES)(`${OP} on %s`, (kind) => {
  let p: TestPlatform;
  let w: World;
  const streams: OpenStream[] = [];
  const open = async (query = '', headers: Record<string, string> = {}, style: 'rest' | 'rpc' = 'rest') => {
    const path = style === 'rest' ? `/change/subscribe?${query}` : `/?action=change.subscribe&${query}`;
    const s = await openStream(`${p.url}${path}`, headers);
    streams.push(s);
    return s;
  };
  const rename = (eventID: string, value: string, token = w.adminA) =>
    p.ok('event.edit', { token, query: { eventID, key: 'name' }, body: { value } });

  beforeAll(async () => {
    p = await startTestPlatform(kind, { STREAM_MAX: '4', STREAM_HEARTBEAT_MS: '300' });
    w = await world(p);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await p?.close();
  });

  it.each(['rest', 'rpc'] as const)(
    'opens a stream (%s style) that no cache stores or proxy buffers',
    async (style) => {
      const s = await open('', {}, style);
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.headers.get('cache-control')).toBe('no-store');
      expect(s.headers.get('x-accel-buffering')).toBe('no');
      // Readable from any page (an EventSource on a widget's page), never with credentials.
      expect(s.headers.get('access-control-allow-origin')).toBe('*');
      s.close();
    },
  );

  it('tells of a change of an open event with its company and event, id = the change id', async () => {
    const s = await open();
    const { companyID, eventID } = w.eventA;
    await rename(eventID, 'Renamed once');
    const m = await s.next((x) => x.event === 'change' && data(x).eventID === eventID);
    const d = data(m);
    expect(d).toEqual({ changeID: m.id, companyID, eventID });
    const logged = await p.db.selectFrom('change').selectAll().where('changeID', '=', Number(m.id)).executeTakeFirst();
    expect(logged?.operation).toBe('event.edit');
    s.close();
  });

  it('names only the company for a private or hidden event, and nothing for a person’s own change', async () => {
    const s = await open();
    const { eventID, companyID } = w.eventB;
    await p.ok('event.edit', { token: w.adminB, query: { eventID, key: 'visible' }, body: { value: 0 } });
    const hidden = data(await s.next((x) => data(x).companyID === companyID));
    expect(hidden.eventID).toBe('');
    await rename(eventID, 'Hidden rename', w.adminB);
    await p.ok('person.edit', { token: w.adminB, query: { key: 'name' }, body: { value: 'Someone else' } });
    // A marker after both: everything before it has been delivered.
    await rename(w.eventA.eventID, 'Marker');
    const marker = s.messages.length;
    await s.next((x) => data(x).eventID === w.eventA.eventID);
    const heard = s.messages.slice(0, marker + 1).map(data);
    expect(heard.filter((d) => d.eventID === eventID)).toEqual([]);
    // Two changes of company B (visible, then the name): each named by its company alone; the person's edit not at all.
    expect(heard.filter((d) => d.companyID === companyID)).toHaveLength(2);
    await p.ok('event.edit', { token: w.adminB, query: { eventID, key: 'visible' }, body: { value: 1 } });
    await s.next((x) => data(x).eventID === eventID);
    s.close();
  });

  it('tells nothing of a write no public read shows (an organizer drafting an e-mail)', async () => {
    const s = await open();
    const { eventID } = w.eventA;
    await p.ok('event.email.create', {
      token: w.adminA,
      query: { eventID },
      body: { subject: 'Hello', text: 'Welcome' },
    });
    await rename(eventID, 'After the report');
    const m = await s.next((x) => x.event === 'change' && data(x).eventID === eventID);
    const logged = await p.db.selectFrom('change').selectAll().where('changeID', '=', Number(m.id)).executeTakeFirst();
    expect(logged?.operation).toBe('event.edit');
    expect(s.messages.filter((x) => x.event === 'change')).toHaveLength(1);
    s.close();
  });

  it('resumes after Last-Event-ID (header or query), in order, without what was already had', async () => {
    const first = await open();
    await rename(w.eventA.eventID, 'Before the drop');
    const last = await first.next((x) => x.event === 'change');
    first.close();
    for (let i = 0; i < 3; i++) await rename(w.eventA.eventID, `Missed ${i}`);
    for (const resume of [
      (id: string) => open('', { 'last-event-id': id }),
      (id: string) => open(`lastEventID=${id}`),
    ]) {
      const again = await resume(last.id!);
      await again.next((x) => x.event === 'change' && again.messages.length >= 3);
      const ids = again.messages.slice(0, 3).map((m) => Number(m.id));
      expect(ids[0]).toBeGreaterThan(Number(last.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      again.close();
    }
  });

  it("gives a stream opened without an id the bus's settled id, from which a client that dropped resumes", async () => {
    await rename(w.eventA.eventID, 'Before opening');
    const newest = async () =>
      Number((await p.db.selectFrom('change').select((e) => e.fn.max('changeID').as('id')).executeTakeFirstOrThrow()).id); // prettier-ignore
    const first = await open();
    await until(async () => first.lastId() !== '', 'the opening id');
    // `id:` alone: no message, but the id a reconnection names; never past the log's newest.
    expect(first.messages).toEqual([]);
    expect(Number(first.lastId())).toBeLessThanOrEqual(await newest());
    first.close();
    await rename(w.eventA.eventID, 'Missed while away');
    const away = await newest();
    const again = await open('', { 'last-event-id': first.lastId() });
    // The replay may repeat changes the first stream could have heard; it holds the one made while away.
    await again.next((x) => x.event === 'change' && Number(x.id) === away);
    again.close();
  });

  it('answers one `reset` when the client missed more than the log keeps', async () => {
    await rename(w.eventA.eventID, 'Soon pruned');
    const newest = await p.db
      .selectFrom('change')
      .select((e) => e.fn.max('changeID').as('id'))
      .executeTakeFirstOrThrow();
    await pruneChanges(p.db, Date.now() + 1000);
    await rename(w.eventA.eventID, 'After the prune');
    const s = await open(`lastEventID=1`);
    const reset = await s.next((x) => x.event === 'reset');
    expect(Number(reset.id)).toBeGreaterThan(Number(newest.id));
    s.close();
  });

  it('refuses a lastEventID that is not a change id with one plain line', async () => {
    const s = await open('lastEventID=abc');
    expect(s.status).toBe(400);
    expect(s.text).toMatch(/^400 lastEventID /);
  });

  it('sends a heartbeat comment on a quiet stream', async () => {
    const s = await open();
    const end = Date.now() + 2000;
    while (s.comments.filter((c) => c.trim() === '').length === 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect(s.comments.filter((c) => c.trim() === '').length).toBeGreaterThan(0);
    s.close();
  });

  it('answers 503 with Retry-After past STREAM_MAX open streams, and takes one again once one closes', async () => {
    for (const s of streams) s.close();
    await new Promise((r) => setTimeout(r, 200));
    const held = await Promise.all([open(), open(), open(), open()]);
    const over = await open();
    expect(over.status).toBe(503);
    expect(over.text).toBe('503 too many open streams, try again shortly');
    expect(over.headers.get('retry-after')).toBe('5');
    held[0].close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await open();
    expect(again.status).toBe(200);
    for (const s of [...held, again]) s.close();
  });
});

describe('streams and shutdown', () => {
  it('ends every open stream when the platform closes, at once', async () => {
    const p = await startTestPlatform('sqlite');
    const s = await openStream(`${p.url}/change/subscribe`);
    expect(s.status).toBe(200);
    const started = performance.now();
    await p.close();
    await s.ended;
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe.each(TWO_PROCESSES)('a stream on another process (%s %o)', (kind, env) => {
  const two = twoProcesses(kind, env);

  it('hears a write made through the first within a second', async () => {
    const { a, b, w } = two;
    const s = await openStream(`${b.url}/change/subscribe`);
    const started = performance.now();
    await a.ok('event.edit', {
      token: w.adminA,
      query: { eventID: w.eventA.eventID, key: 'name' },
      body: { value: 'X' },
    });
    await s.next((m) => data(m).eventID === w.eventA.eventID, 0, 1000);
    expect(performance.now() - started).toBeLessThan(1000);
    s.close();
  });
});

describe('the hub, on its own', () => {
  it('lets go of a client that stopped reading (bounded memory), and keeps the others', async () => {
    const { createStreamHub } = await import('../../src/platform/stream/hub.ts');
    const p = await startTestPlatform('sqlite');
    const hub = createStreamHub({ db: p.db, max: 10, heartbeatMs: 60_000, maxBacklog: 1000 });
    hub.settleWith(() => 0);
    const sink = (stalled: boolean) => {
      const s = { written: '', ended: false, backlog: 0 };
      return Object.assign(s, {
        write(text: string) {
          s.written += text;
          if (stalled) s.backlog += text.length;
        },
        end() {
          s.ended = true;
        },
      });
    };
    const view = { name: 'all', message: (c: { changeID: number }) => ({ id: c.changeID, event: 'x', data: {} }) };
    const slow = sink(true);
    const fast = sink(false);
    hub.open(view, undefined, slow);
    hub.open(view, undefined, fast);
    const change = { at: 0, operation: 'x.y', kind: 'x', companyID: 1, eventID: 1, objectID: null };
    for (let i = 1; i <= 100; i++) hub.publish({ ...change, changeID: i });
    await new Promise((r) => setTimeout(r, 50));
    expect(slow.ended).toBe(true);
    expect(fast.ended).toBe(false);
    expect(fast.written.match(/^id: \d+\nevent:/gm)).toHaveLength(100);
    // It opened with the settled id alone (here 0), before any message.
    expect(fast.written).toMatch(/^retry: 2000\n: open\n\nid: 0\n\nid: 1\n/);
    expect(hub.size).toBe(1);
    hub.close();
    expect(fast.ended).toBe(true);
    await p.close();
  });

  it('sends changes that commit out of id order (PostgreSQL), and a replayed change once though the bus brings it too', async () => {
    const { createStreamHub } = await import('../../src/platform/stream/hub.ts');
    const { recordChange } = await import('../../src/platform/resources/change/log.ts');
    const p = await startTestPlatform('sqlite');
    const hub = createStreamHub({ db: p.db, max: 10, heartbeatMs: 60_000 });
    const view = { name: 'all', message: (c: { changeID: number }) => ({ id: c.changeID, event: 'x', data: {} }) };
    // The messages' ids (a stream opened without an id first gets `id:` alone, no message).
    const ids = (text: string) => [...text.matchAll(/^id: (\d+)\nevent:/gm)].map((m) => Number(m[1]));
    const sink = () => {
      const s = { written: '', backlog: 0 };
      return Object.assign(s, { write: (t: string) => void (s.written += t), end() {} });
    };
    const live = sink();
    hub.open(view, undefined, live);
    const change = { at: 0, operation: 'x.y', kind: 'x', companyID: 1, eventID: 1, objectID: null };
    hub.publish({ ...change, changeID: 5 });
    hub.publish({ ...change, changeID: 3 }); // took its id first, committed second
    await new Promise((r) => setTimeout(r, 20));
    expect(ids(live.written)).toEqual([5, 3]);

    const logged = await recordChange(p.db, { operation: 'x.y', kind: 'x', companyID: 1, eventID: 1 });
    const back = sink();
    hub.open(view, logged.changeID - 1, back);
    await new Promise((r) => setTimeout(r, 50));
    hub.publish(logged); // the bus brings it after the replay read it from the log
    await new Promise((r) => setTimeout(r, 20));
    expect(ids(back.written)).toEqual([logged.changeID]);
    hub.close();
    await p.close();
  });
  it('holds a guarded stream’s messages while its guard is asked again: sent if it holds, never if not; ended at its expiry', async () => {
    const { createStreamHub } = await import('../../src/platform/stream/hub.ts');
    const p = await startTestPlatform('sqlite');
    const hub = createStreamHub({ db: p.db, max: 10, heartbeatMs: 50 });
    // The messages' ids (a stream opened without an id first gets `id:` alone, no message).
    const ids = (text: string) => [...text.matchAll(/^id: (\d+)\nevent:/gm)].map((m) => Number(m[1]));
    const sink = () => {
      const s = { written: '', ended: false, backlog: 0 };
      return Object.assign(s, { write: (t: string) => void (s.written += t), end: () => void (s.ended = true) });
    };
    const message = (c: { changeID: number }) => ({ id: c.changeID, event: 'x', data: {} });
    /** A guard whose answers the test gives: `answer(true)` holds, `answer(false)` does not. */
    const guard = (expiresAt = Infinity) => {
      const g = { asked: 0, answer: (_: boolean) => {}, expiresAt };
      return Object.assign(g, {
        concerns: (c: { kind: string }) => c.kind === 'person',
        holds: () => new Promise<boolean>((r) => (g.asked++, (g.answer = r))),
      });
    };
    const kept = guard();
    const revoked = guard();
    const a = sink();
    const b = sink();
    hub.open({ name: 'v', message, guard: kept }, undefined, a);
    hub.open({ name: 'v', message, guard: revoked }, undefined, b);
    const change = { at: 0, operation: 'x.y', kind: 'x', companyID: 1, eventID: 1, objectID: null };
    const settle = () => new Promise((r) => setTimeout(r, 20));
    hub.publish({ ...change, changeID: 1 });
    await settle();
    hub.publish({ ...change, changeID: 2, kind: 'person' });
    hub.publish({ ...change, changeID: 3 });
    await settle();
    expect([kept.asked, revoked.asked]).toEqual([1, 1]);
    // Asked, not answered yet: what came after the change that concerned them waits.
    expect(ids(a.written)).toEqual([1]);
    expect(ids(b.written)).toEqual([1]);
    kept.answer(true);
    revoked.answer(false);
    await settle();
    expect(ids(a.written)).toEqual([1, 2, 3]);
    expect(ids(b.written)).toEqual([1]);
    expect([a.ended, b.ended]).toEqual([false, true]);

    const expiring = sink();
    hub.open({ name: 'v', message, guard: guard(Date.now() + 100) }, undefined, expiring);
    await new Promise((r) => setTimeout(r, 300));
    expect([a.ended, expiring.ended]).toEqual([false, true]);
    hub.close();
    await p.close();
  });
});
