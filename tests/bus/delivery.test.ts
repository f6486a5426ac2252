import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Delivery } from '../../src/platform/bus/delivery.ts';
import { describe as describeError } from '../../src/platform/bus/log.ts';
import { decode, encode } from '../../src/platform/bus/wire.ts';
import { migrate, openStore } from '../../src/platform/db/connect.ts';
import type { DB } from '../../src/platform/db/schema.ts';
import { recordChange, type ChangeRow } from '../../src/platform/resources/change/log.ts';
import { freshStore } from '../helpers/platform.ts';

// The part of the bus every transport shares, on its own: what it delivers, in which order, and
// what it keeps in memory.

const row = (changeID: number): ChangeRow => ({
  changeID,
  at: 1_700_000_000_000 + changeID,
  operation: 'activity.edit',
  kind: 'activity',
  companyID: 1,
  eventID: 2,
  objectID: changeID,
});

describe('bus delivery', () => {
  let db: Kysely<DB>;
  const warnings: string[] = [];
  const warn = (_key: string, line: string) => void warnings.push(line);

  beforeAll(async () => {
    db = openStore((await freshStore('sqlite')).url).db;
    await migrate(db);
  });
  afterAll(() => db.destroy());

  it('holds live changes while it reads the log, then sends them after what the log had, in id order', async () => {
    const d = new Delivery({ db, warn, pollMs: 60_000 });
    const start = (await recordChange(db, { operation: 'x.edit', kind: 'x' })).changeID;
    d.start(start);
    const logged = [];
    for (let n = 0; n < 3; n++) logged.push(await recordChange(db, { operation: 'x.edit', kind: 'x' }));
    const got: number[] = [];
    d.subscribe((c) => void got.push(c.changeID));
    const newer = row(start + 10);
    const reading = d.sweep();
    d.live([newer, logged[1]]);
    await reading;
    expect(got).toEqual([...logged.map((r) => r.changeID), newer.changeID]);
    await d.close();
  });

  it('remembers a bounded number of ids, and never delivers one twice', async () => {
    const d = new Delivery({ db, warn, pollMs: 60_000, maxSeen: 100 });
    const got: number[] = [];
    d.subscribe((c) => void got.push(c.changeID));
    for (let id = 1; id <= 1000; id++) d.live([row(id)]);
    expect(d.remembered).toBeLessThanOrEqual(100);
    // A late echo of a recent id, and of one long forgotten: neither goes out again.
    d.live([row(999), row(5)]);
    expect(got.length).toBe(1000);
    expect(new Set(got).size).toBe(1000);
    await d.close();
  });

  it('keeps delivering to the other listeners when one throws, and says so in one line', async () => {
    const d = new Delivery({ db, warn, pollMs: 60_000 });
    const got: number[] = [];
    d.subscribe(() => {
      throw new Error('listener bug\nsecond line');
    });
    d.subscribe((c) => void got.push(c.changeID));
    d.live([row(1), row(2)]);
    expect(got).toEqual([1, 2]);
    expect(warnings.at(-1)).toBe('bus: a change listener failed: listener bug');
    await d.close();
  });

  it('stops polling when closed', async () => {
    const d = new Delivery({ db, warn, pollMs: 50 });
    d.start(0);
    const got: number[] = [];
    d.subscribe((c) => void got.push(c.changeID));
    await d.close();
    await recordChange(db, { operation: 'x.edit', kind: 'x' });
    await sleep(200);
    expect(got).toEqual([]);
  });

  it('sends a batch as its id range past the size limit, and ignores messages that are not batches', () => {
    const rows = [row(3), row(4), row(5)];
    expect(decode(encode(rows, 10_000))).toEqual({ rows });
    expect(decode(encode(rows, 100))).toEqual({ from: 3, to: 5 });
    for (const bad of ['', 'null', '{"r":[[1]]}', '{"f":5,"t":3}', '{"r":[["1",2,"a","b",null,null,null]]}'])
      expect(decode(bad)).toBeUndefined();
  });

  it('writes errors as one line without the credentials of a URL', () => {
    const err = Object.assign(new Error('cannot reach redis://:pw@host:6379/0\nat somewhere'), { code: 'EX' });
    expect(describeError(err)).toBe('EX cannot reach redis://host:6379/0');
  });
});
