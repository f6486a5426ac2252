import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { createCompany } from '../resources/company/repository.ts';
import { createPerson, findPersonByUsername } from '../resources/person/repository.ts';
import { COMPANY_LEVEL } from '../kernel/table.ts';
import { fromWallTime, wallTime } from '../resources/time.ts';
import { DEMO_PROGRAM, seedForm, seedProgram, seedSections } from './program.ts';

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
const PARTNER_PROGRAM = { days: 1, activities: 12, speakers: 8 };

/**
 * Loads a demo company with a public three-day event (120 activities in 6 rooms, 40 speakers, 12
 * sponsors in 3 tiers, hotsite sections of every kind, a registration form) and a private partner
 * day behind an access code; does nothing if the demo company exists.
 */
export async function seedDemo(
  db: Kysely<DB>,
  now = Math.floor(Date.now() / 1000),
  /** First day of the summit, YYYY-MM-DD (default: 30 days from now). */
  firstDate?: string,
): Promise<DemoSeed | undefined> {
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

    // Next month, three days from 09:00 to 18:00 Lisbon time; the partner day follows.
    const timezone = 'Europe/Lisbon';
    const [year, month, day] = firstDate ? firstDate.split('-').map(Number) : [];
    const date = firstDate ? { year, month, day } : wallTime(now + 30 * DAY, timezone);
    const firstDay = fromWallTime({ ...date, hour: 0, minute: 0, second: 0 }, timezone);
    const first = wallTime(firstDay, timezone);
    const at = (day: number, hour: number) =>
      fromWallTime({ ...first, day: first.day + day, hour, minute: 0, second: 0 }, timezone);
    const start = at(0, 9);
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
        dateEnd: at(2, 18),
        timezone,
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
        dateBegin: at(3, 9),
        dateEnd: at(3, 18),
        timezone,
        visible: 1,
        public: 0,
        accessCode,
      })
      .returning('eventID')
      .executeTakeFirstOrThrow();

    await seedProgram(trx, { eventID, companyID, timezone, firstDay }, DEMO_PROGRAM, now);
    await seedSections(trx, eventID);
    await seedForm(trx, eventID);
    const partnerDay = at(3, 0);
    await seedProgram(
      trx,
      { eventID: privateEventID, companyID, timezone, firstDay: partnerDay },
      PARTNER_PROGRAM,
      now,
    );

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
