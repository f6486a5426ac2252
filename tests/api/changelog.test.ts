// The program changelog (issue 13, outcome 3): every write that changes what an event's program shows
// records, in its transaction, what it changed (added, removed, moved, room, renamed, speakers) under
// the event's next version; activity.changes answers it newest first, `since` a version, under the
// public-read rules, with what was written while the event was hidden kept to its admins. Both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

describe.each(STORES)('activity.changes on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  const changes = (eventID: string, query: Record<string, string | number> = {}, token?: string) =>
    p.ok('activity.changes', { token, query: { eventID, limit: 100, ...query } });
  const create = (eventID: string, name: string, begin = 1900000000) =>
    p.ok('activity.create', {
      token: w.adminA,
      query: { eventID },
      body: { name, location: 'Hall A', dateBegin: String(begin), dateEnd: String(begin + 3600) },
    });
  const edit = (activityID: string, key: string, value: string, query: Record<string, string | number> = {}) =>
    p.ok('activity.edit', { token: w.adminA, query: { activityID, key, ...query }, body: { value } });

  it('records each kind of change with the values before and after, one version per write, newest first', async () => {
    const eventID = w.eventA.eventID;
    const [a] = await create(eventID, 'Opening');
    await edit(a.activityID, 'name', 'Keynote');
    await edit(a.activityID, 'dateBegin', '1900001800');
    await edit(a.activityID, 'location', 'Hall B');
    const [speaker] = await p.ok('speaker.create', { token: w.adminA, query: { eventID }, body: { name: 'Ada' } });
    await p.ok('activity.speaker.bind', {
      token: w.adminA,
      query: { activityID: a.activityID, speakerID: speaker.speakerID },
    });
    await p.ok('speaker.edit', {
      token: w.adminA,
      query: { speakerID: speaker.speakerID, key: 'name' },
      body: { value: 'Ada Lovelace' },
    });
    // Nothing the program shows: no version.
    await edit(a.activityID, 'capacity', '30');
    await p.ok('activity.remove', { token: w.adminA, query: { activityID: a.activityID } });

    const rows = await changes(eventID);
    const table = rows.map((r) => [
      r.version,
      r.kinds,
      r.oldName,
      r.name,
      r.oldLocation,
      r.location,
      r.oldSpeakers,
      r.speakers,
    ]);
    expect(table).toEqual([
      ['7', 'removed', 'Keynote', '', 'Hall B', '', 'Ada Lovelace', ''],
      ['6', 'speakers', 'Keynote', 'Keynote', 'Hall B', 'Hall B', 'Ada', 'Ada Lovelace'],
      ['5', 'speakers', 'Keynote', 'Keynote', 'Hall B', 'Hall B', '', 'Ada'],
      ['4', 'room', 'Keynote', 'Keynote', 'Hall A', 'Hall B', '', ''],
      ['3', 'moved', 'Keynote', 'Keynote', 'Hall A', 'Hall A', '', ''],
      ['2', 'renamed', 'Opening', 'Keynote', 'Hall A', 'Hall A', '', ''],
      ['1', 'added', '', 'Opening', '', 'Hall A', '', ''],
    ]);
    expect(rows[4]).toMatchObject({ oldDateBegin: '1900000000', dateBegin: '1900001800', activityID: a.activityID });
    expect(rows.every((r) => r.eventID === eventID && /^\d+$/.test(r.date))).toBe(true);
    // since: only the versions after the one the reader saw.
    expect((await changes(eventID, { since: 5 })).map((r) => r.version)).toEqual(['7', '6']);
    expect(await changes(eventID, { since: 7 })).toEqual([]);
  });

  it('a delay of many sessions is one version with a row for each moved session', async () => {
    const eventID = w.eventA.eventID;
    const [first] = await create(eventID, 'Morning', 1910000000);
    await create(eventID, 'Noon', 1910007200);
    const before = Number((await changes(eventID))[0].version);
    await p.ok('activity.delay', {
      token: w.adminA,
      query: { activityID: first.activityID, minutes: 15, subsequent: 1 },
    });
    const rows = await changes(eventID, { since: before });
    expect(rows.map((r) => [r.version, r.kinds, r.name])).toEqual([
      [String(before + 1), 'moved', 'Morning'],
      [String(before + 1), 'moved', 'Noon'],
    ]);
  });

  it('a refused write and sandbox=1 record nothing', async () => {
    const eventID = w.eventA.eventID;
    const [a] = await create(eventID, 'Stays');
    const last = (await changes(eventID))[0].version;
    await edit(a.activityID, 'name', 'Sandboxed', { sandbox: 1 });
    const refused = await p.call('activity.edit', {
      token: w.adminA,
      query: { activityID: a.activityID, key: 'dateEnd' },
      body: { value: '1000' },
    });
    expect(refused.status).toBe(400);
    expect((await changes(eventID))[0].version).toBe(last);
  });

  it('changes made while the event was hidden reach only its admins; a private event needs a grant or a relation', async () => {
    const [draft] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: 'Draft', nickname: 'draft-changes' },
    });
    const [secret] = await create(draft.eventID, 'Secret plan');
    await p.ok('activity.remove', { token: w.adminA, query: { activityID: secret.activityID } });
    // Hidden: as if it did not exist.
    expect((await p.call('activity.changes', { query: { eventID: draft.eventID } })).status).toBe(404);
    await p.ok('event.edit', {
      token: w.adminA,
      query: { eventID: draft.eventID, key: 'visible' },
      body: { value: 1 },
    });
    await create(draft.eventID, 'Public talk');
    const anonymous = await changes(draft.eventID);
    expect(anonymous.map((r) => [r.version, r.kinds, r.name])).toEqual([['3', 'added', 'Public talk']]);
    expect(JSON.stringify(anonymous)).not.toContain('Secret');
    // Another company's admin reads it as anyone does.
    expect((await changes(draft.eventID, {}, w.adminB)).map((r) => r.version)).toEqual(['3']);
    // The event's admins see its whole history.
    expect((await changes(draft.eventID, {}, w.adminA)).map((r) => `${r.version} ${r.kinds}`)).toEqual([
      '3 added',
      '2 removed',
      '1 added',
    ]);
    // Private: 403 without a grant, answered with one.
    await p.ok('event.edit', {
      token: w.adminA,
      query: { eventID: draft.eventID, key: 'accessCode' },
      body: { value: '4321' },
    });
    await p.ok('event.edit', { token: w.adminA, query: { eventID: draft.eventID, key: 'public' }, body: { value: 0 } });
    const refused = await p.call('activity.changes', { query: { eventID: draft.eventID } });
    expect(refused.text).toMatch(/^403 .*grant/);
    const [check] = await p.ok('event.checkAccessCode', {
      query: { eventID: draft.eventID },
      body: { accessCode: 4321 },
    });
    expect((await changes(draft.eventID, { grant: check.grant })).map((r) => r.version)).toEqual(['3']);
    expect((await changes(draft.eventID, {}, w.adminA)).length).toBe(3);
  });

  it('validates its parameters', async () => {
    for (const [query, message] of [
      [{}, '400 eventID cannot be empty'],
      [{ eventID: 'x' }, '400 eventID must be a positive integer'],
      [{ eventID: w.eventA.eventID, since: '-1' }, '400 since must be at least 0'],
      [{ eventID: '999999' }, '404 event not found'],
    ] as [Record<string, string>, string][]) {
      const r = await p.call('activity.changes', { query });
      expect(r.text).toBe(message);
    }
  });
});
