import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { pruneCancelledCodes } from '../../src/platform/resources/checklog/repository.ts';
import { until } from '../helpers/processes.ts';

// Check-in (issue 16, docs/api/checkin.md): scans at the doors, idempotent by (code, date, door,
// direction) and by nonce, live counts, the log — on both stores, in both call styles.

const CODE = { ana: 'AnaQrCode000000000000000', bo: 'BoQrCode0000000000000000', cy: 'CyQrCode0000000000000000' };
const T0 = 1_800_000_000;

describe.each(STORES)('check-in on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventID: string;
  let activityID: string;
  let otherActivityID: string;
  const people: Record<string, number> = {};

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    eventID = w.eventA.eventID;
    for (const [name, approved] of [
      ['ana', 1],
      ['bo', 1],
      ['cy', 0],
    ] as const) {
      people[name] = await p.person(`${name}@podium.test`, 'pw');
      await p.enrol(Number(eventID), people[name], { approved, qrCode: CODE[name], name: `${name} Scan` });
    }
    // The same code in event B: it never names anyone in event A.
    const dan = await p.person('dan@podium.test', 'pw');
    await p.enrol(Number(w.eventB.eventID), dan, { approved: 1, qrCode: 'DanQrCode000000000000000' });
    activityID = await p.insertRow('activity', { eventID: Number(eventID), name: 'Keynote' }, 'activityID');
    otherActivityID = await p.insertRow('activity', { eventID: Number(w.eventB.eventID), name: 'B talk' }, 'activityID'); // prettier-ignore
  });
  afterAll(() => p?.close());

  const scan = (op: 'checkIn' | 'checkOut', query: Record<string, string | number>, style: 'rpc' | 'rest' = 'rpc', token = w.staff) =>
    p.call(`checklog.${op}`, { token, style, query: { eventID, ...query } }); // prettier-ignore

  describe.each(['rpc', 'rest'] as const)('%s', (style) => {
    // Each style has its own door (the event's entrance for rpc, the keynote for rest): the same sequence.
    const door = (): Record<string, string> => (style === 'rpc' ? {} : { activityID });
    const date = (n: number) => T0 + n + (style === 'rpc' ? 0 : 1000);

    it.each([
      ['first entry', 'checkIn', 'ana', 0, {}, 'first', '', '0'],
      ['the same scan again', 'checkIn', 'ana', 0, {}, 'first', '', '1'],
      ['a second scan while inside', 'checkIn', 'ana', 5, {}, 'refused', 'already inside', '0'],
      ['a second scan with reentry=1', 'checkIn', 'ana', 6, { reentry: 1 }, 'reentry', '', '0'],
      ['leaving', 'checkOut', 'ana', 10, {}, 'out', '', '0'],
      ['leaving again', 'checkOut', 'ana', 11, {}, 'refused', 'not inside', '0'],
      ['coming back', 'checkIn', 'ana', 20, {}, 'reentry', '', '0'],
      ['a registration not approved', 'checkIn', 'cy', 0, {}, 'refused', 'not approved', '0'],
      ['never in, leaving', 'checkOut', 'bo', 0, {}, 'refused', 'not inside', '0'],
      ["another event's attendee", 'checkIn', 'dan', 0, {}, 'refused', 'unknown code', '0'],
      ['a made-up code', 'checkIn', 'nobody', 0, {}, 'refused', 'unknown code', '0'],
      ["ana's code with its last character changed", 'checkIn', 'near', 0, {}, 'refused', 'unknown code', '0'],
      ["ana's code cut short", 'checkIn', 'prefix', 0, {}, 'refused', 'unknown code', '0'],
    ] as const)('%s', async (_label, op, who, at, extra, result, reason, replayed) => {
      const others = { dan: 'DanQrCode000000000000000', nobody: 'x'.repeat(24), near: `${CODE.ana.slice(0, -1)}1`, prefix: CODE.ana.slice(0, 12) }; // prettier-ignore
      const code = who in others ? others[who as keyof typeof others] : CODE[who as keyof typeof CODE];
      const r = await scan(op, { code, date: date(at), ...door(), ...extra }, style);
      expect(r.status, r.text).toBe(200);
      const row = r.data[0];
      expect({ result: row.result, reason: row.reason, replayed: row.replayed }).toEqual({ result, reason, replayed });
      if (who === 'ana') expect([row.personID, row.name]).toEqual([String(people.ana), 'ana Scan']);
      if (who in { dan: 1, nobody: 1, near: 1, prefix: 1 }) expect([row.personID, row.checklogID]).toEqual(['', '']);
    });
  });

  it('a nonce sent again gets the first answer, whatever date it carries; used for another scan → 409', async () => {
    const first = await scan('checkIn', { code: CODE.bo, date: T0 + 100, nonce: 'device1-0001' });
    expect(first.data[0]).toMatchObject({ result: 'first', replayed: '0', nonce: 'device1-0001' });
    const again = await scan('checkIn', { code: CODE.bo, date: T0 + 160, nonce: 'device1-0001' });
    expect(again.data[0]).toMatchObject({ result: 'first', replayed: '1', date: String(T0 + 100), checklogID: first.data[0].checklogID }); // prettier-ignore
    const other = await scan('checkIn', { code: CODE.ana, date: T0 + 170, nonce: 'device1-0001' });
    expect(other.text).toBe('409 nonce was already used for another scan');
  });

  it('marks the attendee present at the first entry through the entrance', async () => {
    const row = await p.db.selectFrom('eventPerson').select('present').where('personID', '=', people.ana).executeTakeFirstOrThrow(); // prettier-ignore
    expect(row.present).toBe(1);
  });

  it('stats count people inside now per door; checkedIn lists them', async () => {
    const stats = await p.ok('checklog.stats', { token: w.staff, query: { eventID } });
    // Entrance: ana (back in) and bo inside; keynote: ana.
    expect(stats.map((r) => [r.activityID, r.name, r.inside, r.checkedIn, r.entries])).toEqual([
      ['0', '', '2', '2', '3'],
      [activityID, 'Keynote', '1', '1', '2'],
    ]);
    // The attendees expected at the door: approved registrations with the User level. The world's
    // attendee, ana and bo; not cy (not approved), nor the event's admin and staff member (levels 4 and
    // 64, approved by default), nor a presenter (128) — the door staff's "of N" counted them all.
    const presenter = await p.person('presenter@podium.test', 'pw');
    await p.enrol(Number(eventID), presenter, { level: 128, approved: 1, qrCode: 'PresenterQrCode000000000' });
    const counted = await p.ok('checklog.stats', { token: w.staff, query: { eventID } });
    expect([counted[0].approved, counted[0].attendeesInside]).toEqual(['3', '2']);

    // Refused at each door: not inside (leaving again), not approved (cy), not inside (bo never in). Ana
    // scanned in again while inside (no reentry) is logged as `already inside` but is no refusal: a valid
    // ticket scanned twice (unknown codes are not logged at all).
    expect(stats.map((r) => r.refused)).toEqual(['3', '3']);
    // Those second scans are counted apart, one at each door.
    expect(stats.map((r) => r.repeats)).toEqual(['1', '1']);
    const log = await p.ok('checklog.find', { token: w.staff, query: { eventID, limit: 100 } });
    expect(log.filter((r) => r.reason === 'already inside').map((r) => r.activityID).sort()).toEqual(['0', activityID].sort()); // prettier-ignore
    const inside = await p.ok('checklog.checkedIn', { token: w.staff, query: { eventID } });
    expect(inside.map((r) => r.personID).sort()).toEqual([String(people.ana), String(people.bo)].sort());
    const keynote = await p.ok('checklog.checkedIn', { token: w.staff, style: 'rest', query: { eventID, activityID } });
    expect(keynote.map((r) => r.name)).toEqual(['ana Scan']);
  });

  it("a cancelled registration's code is refused as cancelled (an admin's dismiss and the attendee's own), naming no one", async () => {
    const cancelled: string[] = [];
    for (const [name, self] of [
      ['eve', false],
      ['fay', true],
    ] as const) {
      const personID = await p.person(`${name}@podium.test`, PASSWORD);
      const code = `${name}QrCode`.padEnd(24, '0');
      await p.enrol(Number(eventID), personID, { approved: 1, qrCode: code, name: `${name} Gone` });
      const token = self ? await p.signIn(`${name}@podium.test`, PASSWORD, Number(eventID)) : w.adminA;
      const query: Record<string, string | number> = self ? { eventID } : { eventID, personID };
      expect((await p.call('event.person.dismiss', { token, query })).status).toBe(200);
      cancelled.push(code);
    }
    for (const code of cancelled) {
      const row = (await scan('checkIn', { code, date: T0 + 500 })).data[0];
      expect(row).toMatchObject({ result: 'refused', reason: 'cancelled', personID: '', name: '', checklogID: '' });
    }
    // A near miss of a cancelled code is a code no one had: unknown.
    const near = (await scan('checkIn', { code: `${cancelled[0].slice(0, -1)}1`, date: T0 + 501 })).data[0];
    expect(near.reason).toBe('unknown code');
    // Only the code's hash is kept, never who held it.
    const kept = await p.db.selectFrom('cancelledCode').selectAll().where('eventID', '=', Number(eventID)).execute();
    expect(kept.map((r) => r.codeHash).every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
    expect(kept.map((r) => Object.keys(r).sort())).toEqual([['cancelledAt', 'codeHash', 'eventID'], ['cancelledAt', 'codeHash', 'eventID']]); // prettier-ignore
  });

  it('forgets the cancelled codes a week after the event ends (the hourly prune), not before', async () => {
    const kept = () => p.db.selectFrom('cancelledCode').select('codeHash').where('eventID', '=', Number(eventID)).execute(); // prettier-ignore
    const count = (await kept()).length;
    expect(count).toBeGreaterThan(0);
    const ended = (days: number) =>
      p.db.updateTable('event').set({ dateEnd: Math.floor(Date.now() / 1000) - days * 86400 }).where('eventID', '=', Number(eventID)).execute(); // prettier-ignore
    const before = await p.db.selectFrom('event').select('dateEnd').where('eventID', '=', Number(eventID)).executeTakeFirstOrThrow(); // prettier-ignore
    try {
      await ended(6);
      await pruneCancelledCodes(p.db, Math.floor(Date.now() / 1000));
      expect(await kept()).toHaveLength(count);
      await ended(8);
      await p.platform.jobs.queue.add(p.db, 'change.prune', {});
      await until(async () => (await kept()).length === 0, 'the prune of the cancelled codes');
      expect(await kept()).toEqual([]);
    } finally {
      await p.db.updateTable('event').set({ dateEnd: before.dateEnd }).where('eventID', '=', Number(eventID)).execute(); // prettier-ignore
    }
  });

  it('find lists the log newest first, filters it, and exports it as a spreadsheet', async () => {
    const all = await p.call('checklog.find', { token: w.staff, query: { eventID, paginated: 1, limit: 100 } });
    expect(Number(all.total)).toBe(all.count);
    expect(all.data[0].personID).toBe(String(people.bo));
    expect(all.data.every((r) => !('scanKey' in r))).toBe(true);
    const bo = await p.ok('checklog.find', { token: w.staff, query: { eventID, query: 'BO SC' } });
    expect(new Set(bo.map((r) => r.name))).toEqual(new Set(['bo Scan']));
    const door = await p.ok('checklog.find', { token: w.staff, query: { eventID, activityID, limit: 100 } });
    expect(door.every((r) => r.activityID === activityID)).toBe(true);
    expect(await p.ok('checklog.find', { token: w.staff, query: { eventID, selection: 'printed' } })).toEqual([]);
    await p.db.updateTable('eventPerson').set({ prints: 1 }).where('personID', '=', people.cy).execute();
    const printed = await p.ok('checklog.find', { token: w.staff, query: { eventID, selection: 'printed' } });
    expect(new Set(printed.map((r) => r.personID))).toEqual(new Set([String(people.cy)]));
    const excel = await p.call('checklog.find', { token: w.staff, query: { eventID, format: 'excel' } });
    expect(excel.status).toBe(200);
    expect(excel.headers.get('content-type')).toContain('spreadsheetml');
  });

  it('a presenter scanned in is inside but not among the approved attendees counted inside', async () => {
    // Inside 3 of 3 approved would say every attendee had come; two of the three have.
    expect((await scan('checkIn', { code: 'PresenterQrCode000000000', date: T0 + 50 })).data[0].result).toBe('first');
    const stats = await p.ok('checklog.stats', { token: w.staff, query: { eventID } });
    expect(stats.map((r) => [r.inside, r.approved, r.attendeesInside])).toEqual([
      ['3', '3', '2'],
      ['1', '', ''],
    ]);
  });

  it('each scan is one change of the change log, in its transaction', async () => {
    const before = await p.db.selectFrom('change').select('changeID').where('kind', '=', 'checklog').execute();
    await scan('checkIn', { code: CODE.bo, date: T0 + 500, reentry: 1 });
    const after = await p.db.selectFrom('change').selectAll().where('kind', '=', 'checklog').execute();
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)).toMatchObject({ operation: 'checklog.checkIn', eventID: Number(eventID) });
  });

  it.each([
    ['a session of another event', () => ({ activityID: otherActivityID }), '404 activity not found'],
    ['an unknown session', () => ({ activityID: 999999 }), '404 activity not found'],
  ])('%s is 404', async (_label, extra, text) => {
    expect((await scan('checkIn', { code: CODE.ana, date: T0, ...extra() })).text).toBe(text);
    expect((await p.call('checklog.checkedIn', { token: w.staff, query: { eventID, ...extra() } })).text).toBe(text);
  });

  it('20 devices scanning the same attendees at once make exactly one first entry each', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = await p.person(`crowd${i}@podium.test`, 'pw');
      const code = `${i}Crowd`.padEnd(24, 'c');
      await p.enrol(Number(eventID), id, { approved: 1, qrCode: code });
      codes.push(code);
    }
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, d) =>
        Promise.all(codes.map((code) => scan('checkIn', { code, date: T0 + 900 + d, nonce: `dev${d}-${code}` }))),
      ),
    );
    const rows = answers.flat().map((r) => r.data[0]);
    expect(
      answers
        .flat()
        .filter((r) => r.status !== 200)
        .map((r) => r.text),
    ).toEqual([]);
    const firsts = rows.filter((r) => r.result === 'first').map((r) => r.personID);
    expect(firsts.length).toBe(codes.length);
    expect(new Set(firsts).size).toBe(codes.length);
  });
});

describe('check-in devices', () => {
  let p: TestPlatform;
  let w: World;
  beforeAll(async () => {
    p = await startTestPlatform('sqlite', { CHECKIN_UNKNOWN_PER_MINUTE: '3' });
    w = await world(p);
  });
  afterAll(() => p?.close());

  it('a device scanning unknown codes is refused with 429 past the limit; another device is not', async () => {
    const scan = (token: string, n: number) =>
      p.call('checklog.checkIn', { token, query: { eventID: w.eventA.eventID, code: `guess${n}`.padEnd(24, 'x'), date: T0 } }); // prettier-ignore
    for (let n = 0; n < 3; n++) expect((await scan(w.staff, n)).data[0].reason).toBe('unknown code');
    const refused = await scan(w.staff, 3);
    expect(refused.text).toBe('429 too many unknown codes from this device, wait a minute');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await scan(w.adminA, 4)).status).toBe(200);
  });

  it("a cancelled registration's code scanned again and again is no guess: it never counts toward the 429", async () => {
    const personID = await p.person('gil@podium.test', PASSWORD);
    const code = 'GilQrCode'.padEnd(24, '0');
    await p.enrol(Number(w.eventA.eventID), personID, { approved: 1, qrCode: code });
    await p.ok('event.person.dismiss', { token: w.adminA, query: { eventID: w.eventA.eventID, personID } });
    for (let n = 0; n < 5; n++) {
      const r = await p.call('checklog.checkIn', { token: w.eventAdminSystem, query: { eventID: w.eventA.eventID, code, date: T0 + n } }); // prettier-ignore
      expect(r.data[0]?.reason, r.text).toBe('cancelled');
    }
  });

  it.each([
    ['an attendee', 'attendee', '403'],
    ["another company's admin", 'adminB', '404 event not found'],
  ] as const)('%s cannot scan', async (_label, who, text) => {
    const r = await p.call('checklog.checkIn', { token: w[who], query: { eventID: w.eventA.eventID, code: CODE.ana, date: T0 } }); // prettier-ignore
    expect(r.text.startsWith(text)).toBe(true);
  });
});
