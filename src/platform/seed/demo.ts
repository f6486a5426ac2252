import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { createCompany, namespaceTaken } from '../resources/company/repository.ts';
import { addCompanyPerson } from '../resources/company/people.ts';
import { checkCompanyTagName, EVENT_TAG_KIND } from '../resources/tag/company.ts';
import { bindPair } from '../resources/relation/common.ts';
import { insertRow, updateRow } from '../resources/rows.ts';
import { createPerson, findPersonByUsername } from '../resources/person/repository.ts';
import { COMPANY_LEVEL } from '../auth/levels.ts';
import { fromWallTime, wallTime } from '../resources/time.ts';
import { parseEvent } from '../resources/event/fields.ts';
import { createEvent } from '../resources/event/repository.ts';
import { SETTING_KEYS } from '../resources/form/settings.ts';
import { addBalance } from '../resources/billing/repository.ts';
import { parseEdit } from '../edit.ts';
import { bit } from '../schemas.ts';
import { DEMO_PROGRAM, seedForm, seedProgram, seedSections } from './program.ts';
import { recordChange, type ChangeRow } from '../resources/change/log.ts';
import { reindexEvent } from '../resources/search/maintain.ts';

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
  /** The changes it logged, for a process with a bus to publish once committed (as the dispatcher does). */
  changes: ChangeRow[];
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
  /** The platform's address as browsers reach it, which serves the speakers' photos and sponsors' logos (media.ts). */
  mediaUrl?: string,
): Promise<DemoSeed | undefined> {
  return db.transaction().execute(async (trx) => {
    if (await namespaceTaken(trx, DEMO_NAMESPACE, 0)) return undefined;
    const { companyID } = await createCompany(trx, { shortName: 'Demo' }, now);
    await updateRow(trx, 'company', 'companyID', companyID, {
      storeTitle: 'Podium Demo',
      mainColor: '#4f46e5',
      backgroundColor: '#ffffff',
      language: 'en',
      currency: 'EUR',
    });

    let password: string | undefined;
    let organizer = await findPersonByUsername(trx, DEMO_ORGANIZER);
    if (!organizer) {
      password = randomBytes(9).toString('base64url');
      await createPerson(trx, { username: DEMO_ORGANIZER, name: 'Demo Organizer', password }, now);
      organizer = (await findPersonByUsername(trx, DEMO_ORGANIZER))!;
    }
    const admin = { personID: organizer.personID, level: COMPANY_LEVEL.ADMIN, name: '', email: '' };
    await addCompanyPerson(trx, companyID, admin, now);

    // Next month, three days from 09:00 to 18:00 Lisbon time; the partner day follows.
    const timezone = 'Europe/Lisbon';
    const [year, month, day] = firstDate ? firstDate.split('-').map(Number) : [];
    const date = firstDate ? { year, month, day } : wallTime(now + 30 * DAY, timezone);
    const firstDay = fromWallTime({ ...date, hour: 0, minute: 0, second: 0 }, timezone);
    const first = wallTime(firstDay, timezone);
    const at = (day: number, hour: number) =>
      fromWallTime({ ...first, day: first.day + day, hour, minute: 0, second: 0 }, timezone);
    const start = at(0, 9);
    // Through the event's own parsers and create (company.event.bind's, event.edit's keys, form.edit's
    // capacity): values go in as the strings a request would carry.
    const owner = { companyID, creatorID: organizer.personID };
    const create = (input: Record<string, string>, more: Record<string, unknown> = {}) => {
      const { event, settings } = parseEvent(input);
      return createEvent(trx, owner, event, now, { settings: { ...settings, ...more } });
    };
    const capacity = parseEdit(SETTING_KEYS, 'capacity', '500');
    const eventID = await create(
      {
        name: 'Podium Summit',
        nickname: 'summit',
        description:
          '<p>Three days of talks, workshops and hallway conversations about building events people love.</p>',
        dateBegin: String(start),
        dateEnd: String(at(2, 18)),
        timezone,
        language: 'en',
        address: 'Rua da Prata 80, Lisboa',
        city: 'Lisboa',
        placeName: 'Podium Hall',
        latitude: '38.7101',
        longitude: '-9.1366',
        fugleman: 'Podium Demo',
        email: 'hello@demo.podium.test',
        visible: '1',
        public: '1',
        presential: '1',
      },
      // published: a state field of spec §2.2 that no operation edits; checked as one (0 or 1).
      { [capacity.column]: capacity.value, published: bit.parse('1') },
    );

    const accessCode = 1000 + (randomBytes(2).readUInt16BE() % 9000);
    const privateEventID = await create({
      name: 'Partner Day',
      nickname: 'partners',
      description: '<p>A closed day for sponsors and partners.</p>',
      dateBegin: String(at(3, 9)),
      dateEnd: String(at(3, 18)),
      timezone,
      visible: '1',
      public: '0',
      accessCode: String(accessCode),
    });

    await seedProgram(trx, { eventID, companyID, timezone, firstDay, mediaUrl }, DEMO_PROGRAM, now);
    await seedSections(trx, eventID);
    await seedForm(trx, eventID);
    const partnerDay = at(3, 0);
    await seedProgram(
      trx,
      { eventID: privateEventID, companyID, timezone, firstDay: partnerDay, mediaUrl },
      PARTNER_PROGRAM,
      now,
    );

    for (const name of ['Product', 'Engineering', 'Community']) {
      await checkCompanyTagName(trx, companyID, name);
      const tag = { companyID, eventID: null, name, color: '', kind: EVENT_TAG_KIND };
      await bindPair(trx, 'eventTag', { eventID, tagID: await insertRow(trx, 'tag', 'tagID', tag) });
    }
    await addBalance(trx, { companyID }, 'email', 10000);
    await addBalance(trx, { companyID }, 'sms', 500);
    await addBalance(trx, { companyID, eventID }, 'email', 2000, 120);
    // A writer outside the API logs its changes too (issue 11), so every process hears of the demo.
    const changes = [await recordChange(trx, { operation: 'seed', kind: 'company', companyID, objectID: companyID })];
    for (const id of [eventID, privateEventID]) {
      // Written straight to the store, so indexed here for event.search (docs/api/search.md).
      await reindexEvent(trx, id);
      changes.push(await recordChange(trx, { operation: 'seed', kind: 'event', companyID, eventID: id, objectID: id }));
    }
    return { companyID, eventID, privateEventID, username: DEMO_ORGANIZER, password, accessCode, changes };
  });
}
