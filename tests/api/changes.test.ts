// The change log (issue 11, item 1): every committed write records what it changed, in the same
// transaction — through the API in both call styles, and through the seed and the CLI — and nothing is
// logged for a write that did not commit (refused, failed, or sandbox=1). Both stores.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { changesSince, lastChangeID, type ChangeRow } from '../../src/platform/resources/change/log.ts';
import { seedDemo } from '../../src/platform/seed/demo.ts';

describe.each(STORES)('the change log on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  const importDir = mkdtempSync(join(tmpdir(), 'podium-changes-'));
  beforeAll(async () => {
    p = await startTestPlatform(kind, { IMPORT_DIR: importDir });
    w = await world(p);
  });
  afterAll(async () => {
    await p?.close();
    rmSync(importDir, { recursive: true, force: true });
  });

  /** What `run` logged: the changes after the newest one before it. */
  async function logged(run: () => Promise<unknown>): Promise<Partial<ChangeRow>[]> {
    const before = await lastChangeID(p.db);
    await run();
    // Not the address checks that earlier calls started (sanity.check jobs, at their own pace).
    const mine = (await changesSince(p.db, before)).filter((c) => c.operation !== 'sanity.check');
    return mine.map(({ operation, kind, companyID, eventID, objectID }) => ({
      operation,
      kind,
      companyID,
      eventID,
      objectID,
    }));
  }

  describe.each(STYLES)('%s style', (style) => {
    const c = () => client(p, style);
    const eventID = () => Number(w.eventA.eventID);
    const companyID = () => Number(w.companyA.companyID);

    it('a create logs its new object, with the event and company it belongs to', async () => {
      let speakerID = 0;
      const changes = await logged(async () => {
        const [row] = await c().ok('speaker.create', {
          token: w.adminA,
          query: { eventID: eventID() },
          body: { name: 'Ada' },
        });
        speakerID = Number(row.speakerID);
      });
      expect(changes).toEqual([
        {
          operation: 'speaker.create',
          kind: 'speaker',
          companyID: companyID(),
          eventID: eventID(),
          objectID: speakerID,
        },
      ]);
    });

    it('an edit of an object named by its id logs that object', async () => {
      const [a] = await c().ok('activity.create', {
        token: w.adminA,
        query: { eventID: eventID() },
        body: { name: 'Talk', dateBegin: '1900000000', dateEnd: '1900003600' },
      });
      const changes = await logged(() =>
        c().ok('activity.edit', {
          token: w.adminA,
          query: { activityID: a.activityID, key: 'name' },
          body: { value: 'Keynote' },
        }),
      );
      expect(changes).toEqual([
        {
          operation: 'activity.edit',
          kind: 'activity',
          companyID: companyID(),
          eventID: eventID(),
          objectID: Number(a.activityID),
        },
      ]);
    });

    it('a new event logs its own id, found in the answer', async () => {
      let newID = 0;
      const changes = await logged(async () => {
        const [e] = await c().ok('company.event.bind', {
          token: w.adminA,
          query: { companyID: companyID() },
          body: { name: `Later ${style}`, nickname: `later-${style}-${kind}` },
        });
        newID = Number(e.eventID);
      });
      expect(changes).toEqual([
        {
          operation: 'company.event.bind',
          kind: 'company.event',
          companyID: companyID(),
          eventID: newID,
          objectID: newID,
        },
      ]);
    });

    it('an attendee bound to an event logs the person', async () => {
      let personID = 0;
      const changes = await logged(async () => {
        const [row] = await c().ok('event.person.bind', {
          token: w.adminA,
          query: { eventID: eventID() },
          body: { name: 'Grace', username: `grace-${style}@podium.test` },
        });
        personID = Number(row.personID);
      });
      expect(changes).toMatchObject([
        { operation: 'event.person.bind', kind: 'event.person', eventID: eventID(), objectID: personID },
      ]);
    });

    // A bulk form names no object of its own: each row it answers is a change (kernel/changes.ts changesOf).
    it('a bulk form logs a change per row: activities made from a CSV file, each its own', async () => {
      mkdirSync(join(importDir, w.companyA.companyID), { recursive: true });
      writeFileSync(
        join(importDir, w.companyA.companyID, `acts-${style}.csv`),
        'name,dateBegin,dateEnd\nTalk A,1700000000,1700003600\nTalk B,1700003600,1700007200\n',
      );
      let made: number[] = [];
      const changes = await logged(async () => {
        const rows = await c().ok('activity.create', {
          token: w.adminA,
          query: { eventID: eventID() },
          body: { path: `acts-${style}.csv` },
        });
        made = rows.map((r) => Number(r.activityID));
      });
      expect(made).toHaveLength(2);
      expect(changes).toEqual(
        made.map((objectID) => ({
          operation: 'activity.create',
          kind: 'activity',
          companyID: companyID(),
          eventID: eventID(),
          objectID,
        })),
      );
    });

    it('a speaker bound to an activity or taken off it logs the activity', async () => {
      const [a] = await c().ok('activity.create', {
        token: w.adminA,
        query: { eventID: eventID() },
        body: { name: 'Talk' },
      });
      const [sp] = await c().ok('speaker.create', {
        token: w.adminA,
        query: { eventID: eventID() },
        body: { name: 'Ada' },
      });
      const changes = await logged(async () => {
        for (const action of ['bind', 'dismiss'])
          await c().ok(`activity.speaker.${action}`, {
            token: w.adminA,
            query: { activityID: a.activityID, speakerID: sp.speakerID },
          });
      });
      expect(changes).toMatchObject(
        ['bind', 'dismiss'].map((action) => ({
          operation: `activity.speaker.${action}`,
          kind: 'activity.speaker',
          eventID: eventID(),
          objectID: Number(a.activityID),
        })),
      );
    });

    it('nothing is logged for a refused call, a failing write, or sandbox=1', async () => {
      await c().ok('tag.create', { token: w.adminA, query: { eventID: eventID() }, body: { name: `Track ${style}` } });
      const changes = await logged(async () => {
        await c().fail('speaker.create', { token: w.adminA, query: { eventID: eventID() }, body: {} }, 400);
        await c().fail('speaker.create', { token: w.adminB, query: { eventID: eventID() }, body: { name: 'X' } }, 404);
        await c().fail(
          'tag.create',
          { token: w.adminA, query: { eventID: eventID() }, body: { name: `Track ${style}` } },
          409,
        );
        await c().ok('speaker.create', {
          token: w.adminA,
          query: { eventID: eventID(), sandbox: 1 },
          body: { name: 'Tried' },
        });
      });
      expect(changes).toEqual([]);
    });
  });

  it('the seed logs the company and the events it creates', async () => {
    let seeded: Awaited<ReturnType<typeof seedDemo>>;
    const changes = await logged(async () => {
      seeded = await seedDemo(p.db);
    });
    const { companyID, eventID, privateEventID } = seeded!;
    expect(changes).toEqual([
      { operation: 'seed', kind: 'company', companyID, eventID: null, objectID: companyID },
      { operation: 'seed', kind: 'event', companyID, eventID, objectID: eventID },
      { operation: 'seed', kind: 'event', companyID, eventID: privateEventID, objectID: privateEventID },
    ]);
  });
});
