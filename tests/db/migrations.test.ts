import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { isPostgres, migrate, openStore } from '../../src/platform/db/connect.ts';
import * as core from '../../src/platform/db/migrations/0001_core.ts';
import * as content from '../../src/platform/db/migrations/0002_content.ts';
import * as changeCompany from '../../src/platform/db/migrations/0032_change_company.ts';
import { STORES, freshStore } from '../helpers/platform.ts';

// Migration 0003 splits people into an identity and per-tenant views: a store with data from before it
// must come out with every event and company still showing what it showed (docs/api.md "People").

const PROFILE = {
  username: 'ana@example.com',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Lima',
  name: 'Ana Lima',
  image: 'https://cdn.example.com/ana.png',
  telephone: '+351 1',
  role: 'Editor',
  company: 'Daily News',
  summary: 'Writes.',
  headline: 'Editor at Daily News',
  city: 'Porto',
  socialA: 'https://a.example/ana',
  socialB: 'https://b.example/ana',
  socialC: 'https://c.example/ana',
  socialD: 'https://d.example/ana',
  website: 'https://ana.example',
};

describe.each(STORES)('migration 0003 on %s', (kind) => {
  it("copies each person's profile into their registrations and company records", async () => {
    const store = await freshStore(kind);
    const { db } = openStore(store.url);
    try {
      const schema = isPostgres(db)
        ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
        : undefined;
      const before = new Migrator({
        db,
        provider: { getMigrations: async () => ({ '0001_core': core, '0002_content': content }) },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      expect((await before.migrateToLatest()).error).toBeUndefined();
      const any = db as never as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
      const { personID } = (await any
        .insertInto('person')
        .values({ ...PROFILE, passwordHash: 'scrypt$x', dateCreated: 1 })
        .returning('personID')
        .executeTakeFirstOrThrow()) as { personID: number };
      const { companyID } = (await any
        .insertInto('company')
        .values({ namespace: 'co' })
        .returning('companyID')
        .executeTakeFirstOrThrow()) as { companyID: number };
      const events: number[] = [];
      for (const nickname of ['one', 'two']) {
        const row = (await any
          .insertInto('event')
          .values({ companyID, name: nickname, nickname })
          .returning('eventID')
          .executeTakeFirstOrThrow()) as { eventID: number };
        events.push(row.eventID);
        await any.insertInto('eventPerson').values({ eventID: row.eventID, personID }).execute();
      }
      await any.insertInto('companyPerson').values({ companyID, personID, level: 4, dateCreated: 1 }).execute();

      await migrate(db);

      const registrations = await db.selectFrom('eventPerson').selectAll().where('personID', '=', personID).execute();
      expect(registrations.map((r) => r.eventID).sort()).toEqual(events.sort());
      for (const r of registrations) expect(r).toMatchObject(PROFILE);
      expect(await db.selectFrom('companyPerson').selectAll().executeTakeFirstOrThrow()).toMatchObject({
        name: 'Ana Lima',
        email: 'ana@example.com',
      });
      // The identity stays whole.
      expect(await db.selectFrom('person').selectAll().executeTakeFirstOrThrow()).toMatchObject({
        ...PROFILE,
        passwordHash: 'scrypt$x',
      });
      expect(await db.selectFrom('confirmation').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
      await store.drop();
    }
  });
});

// Migration 0032: changes logged without a company (writes with no token) take their event's.
describe.each(STORES)('migration 0032 on %s', (kind) => {
  it("gives each change of an event that was logged without a company the event's company", async () => {
    const store = await freshStore(kind);
    const { db } = openStore(store.url);
    try {
      await migrate(db);
      const { companyID } = await db
        .insertInto('company')
        .values({ namespace: 'co32' })
        .returning('companyID')
        .executeTakeFirstOrThrow();
      const { eventID } = await db
        .insertInto('event')
        .values({ companyID, name: 'e', nickname: 'e32' })
        .returning('eventID')
        .executeTakeFirstOrThrow();
      const log = (row: { companyID: number | null; eventID: number | null }) =>
        db.insertInto('change').values({ at: 1, operation: 'x', kind: 'x', objectID: null, ids: '', quiet: 0, ...row }).execute(); // prettier-ignore
      await log({ companyID: null, eventID }); // a registration through the public form
      await log({ companyID: null, eventID: null }); // a person's own, of no event: stays so
      await changeCompany.up(db);
      const rows = await db.selectFrom('change').select(['companyID', 'eventID']).orderBy('changeID').execute();
      expect(
        rows.map((r) => [
          r.companyID === null ? null : Number(r.companyID),
          r.eventID === null ? null : Number(r.eventID),
        ]),
      ).toEqual([
        // prettier-ignore
        [companyID, eventID],
        [null, null],
      ]);
    } finally {
      await db.destroy();
      await store.drop();
    }
  });
});
