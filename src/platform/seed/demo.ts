import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { createCompany } from '../domain/company/repository.ts';
import { createPerson, findPersonByUsername } from '../domain/person/repository.ts';
import { COMPANY_LEVEL } from '../table.ts';

export const DEMO_NAMESPACE = 'demo';
export const DEMO_ORGANIZER = 'organizer@demo.podium.test';

export interface DemoSeed {
  companyID: number;
  eventID: number;
  privateEventID: number;
  username: string;
  /** Set only when this call created the organizer. */
  password?: string;
  accessCode: number;
}

export async function isEmpty(db: Kysely<DB>): Promise<boolean> {
  return (await db.selectFrom('company').select('companyID').limit(1).executeTakeFirst()) === undefined;
}

const DAY = 86400;

/** Loads a demo company with a public event and a private one; does nothing if it exists. */
export async function seedDemo(db: Kysely<DB>, now = Math.floor(Date.now() / 1000)): Promise<DemoSeed | undefined> {
  return db.transaction().execute(async (trx) => {
    if (
      await trx.selectFrom('company').select('companyID').where('namespace', '=', DEMO_NAMESPACE).executeTakeFirst()
    ) {
      return undefined;
    }
    const { companyID } = await createCompany(trx, { shortName: 'Demo' }, now);
    await trx
      .updateTable('company')
      .set({
        storeTitle: 'Podium Demo',
        mainColor: '#4f46e5',
        backgroundColor: '#ffffff',
        language: 'en',
        currency: 'EUR',
      })
      .where('companyID', '=', companyID)
      .execute();

    let password: string | undefined;
    let organizer = await findPersonByUsername(trx, DEMO_ORGANIZER);
    if (!organizer) {
      password = randomBytes(9).toString('base64url');
      await createPerson(trx, { username: DEMO_ORGANIZER, name: 'Demo Organizer', password }, now);
      organizer = (await findPersonByUsername(trx, DEMO_ORGANIZER))!;
    }
    await trx
      .insertInto('companyPerson')
      .values({ companyID, personID: organizer.personID, level: COMPANY_LEVEL.ADMIN, dateCreated: now })
      .execute();

    // Next month, 09:00 Lisbon time, three days.
    const start = Math.floor((now + 30 * DAY) / DAY) * DAY + 9 * 3600 - 3600;
    const base = { companyID, dateCreated: now, creatorID: organizer.personID, ownerID: organizer.personID };
    const { eventID } = await trx
      .insertInto('event')
      .values({
        ...base,
        name: 'Podium Summit',
        nickname: 'summit',
        description:
          '<p>Three days of talks, workshops and hallway conversations about building events people love.</p>',
        dateBegin: start,
        dateEnd: start + 2 * DAY + 9 * 3600,
        timezone: 'Europe/Lisbon',
        language: 'en',
        address: 'Rua da Prata 80, Lisboa',
        city: 'Lisboa',
        placeName: 'Podium Hall',
        latitude: 38.7101,
        longitude: -9.1366,
        fugleman: 'Podium Demo',
        emailAddress: 'hello@demo.podium.test',
        visible: 1,
        public: 1,
        presential: 1,
        published: 1,
        capacity: 500,
      })
      .returning('eventID')
      .executeTakeFirstOrThrow();

    const accessCode = 1000 + (randomBytes(2).readUInt16BE() % 9000);
    const { eventID: privateEventID } = await trx
      .insertInto('event')
      .values({
        ...base,
        name: 'Partner Day',
        nickname: 'partners',
        description: '<p>A closed day for sponsors and partners.</p>',
        dateBegin: start + 3 * DAY,
        dateEnd: start + 3 * DAY + 8 * 3600,
        timezone: 'Europe/Lisbon',
        visible: 1,
        public: 0,
        accessCode,
      })
      .returning('eventID')
      .executeTakeFirstOrThrow();

    const tags = await trx
      .insertInto('tag')
      .values(['Product', 'Engineering', 'Community'].map((name) => ({ companyID, name, kind: 'event' })))
      .returning('tagID')
      .execute();
    await trx
      .insertInto('eventTag')
      .values(tags.map((t) => ({ eventID, tagID: t.tagID })))
      .execute();
    await trx
      .insertInto('billing')
      .values([
        { companyID, product: 'email', amount: 10000, sent: 0 },
        { companyID, product: 'sms', amount: 500, sent: 0 },
        { companyID, eventID, product: 'email', amount: 2000, sent: 120 },
      ])
      .execute();
    return { companyID, eventID, privateEventID, username: DEMO_ORGANIZER, password, accessCode };
  });
}
