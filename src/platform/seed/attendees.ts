import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

// Many attendees at once, straight in the store (bench/reports.mjs and the report tests' 100,000-row
// lists): people and their enrollments in batches, approved, with names and companies that differ.

const BATCH = 500;

/** Adds `n` approved attendees to `eventID` (usernames `<tag><i>@seed.podium.test`); answers nothing. */
export async function seedAttendees(db: Kysely<DB>, eventID: number, n: number, tag = 'seed', now = 0): Promise<void> {
  for (let start = 0; start < n; start += BATCH) {
    const people: {
      username: string;
      email: string;
      firstName: string;
      lastName: string;
      name: string;
      dateCreated: number;
    }[] = [];
    for (let i = start; i < Math.min(n, start + BATCH); i++) {
      const email = `${tag}${i}@seed.podium.test`;
      people.push({
        username: email,
        email,
        firstName: `First${i}`,
        lastName: `Last ${i % 977}`,
        name: `First${i} Last ${i % 977}`,
        dateCreated: now,
      });
    }
    await db.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('person').values(people).returning('personID').execute();
      await trx
        .insertInto('eventPerson')
        .values(
          ids.map(({ personID }, k) => ({
            eventID,
            personID,
            username: people[k].username,
            email: people[k].email,
            firstName: people[k].firstName,
            lastName: people[k].lastName,
            name: people[k].name,
            company: `Company ${k % 37}`,
            role: k % 3 === 0 ? '=1+1' : 'Engineer',
            approved: 1,
          })),
        )
        .execute();
    });
  }
  // Fresh statistics: PostgreSQL's planner, still counting the table as nearly empty until autovacuum
  // gets to it, would sort the whole event for every page of a list instead of walking its index.
  await sql`analyze "eventPerson"`.execute(db);
}
