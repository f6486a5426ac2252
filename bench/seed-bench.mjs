// Adds the benchmark's events to a store that already holds the demo: a public event with a
// 300-activity program ("program"), an open registration with no required fields ("signup"), and with
// PROGRAMS=n, n events of 60 activities ("programs").
// Prints their ids as JSON. Usage: DATABASE_URL=file:… node bench/seed-bench.mjs
import { openStore, migrate } from '../src/platform/db/connect.ts';
import { seedProgram } from '../src/platform/seed/program.ts';
import { fromWallTime, wallTime } from '../src/platform/resources/time.ts';

const { db } = openStore(process.env.DATABASE_URL);
await migrate(db);
const now = Math.floor(Date.now() / 1000);
const timezone = 'Europe/Lisbon';
const firstDay = fromWallTime({ ...wallTime(now + 40 * 86400, timezone), hour: 0, minute: 0, second: 0 }, timezone);
const { companyID } = await db
  .selectFrom('company')
  .select('companyID')
  .where('namespace', '=', 'demo')
  .executeTakeFirstOrThrow();

const ids = await db.transaction().execute(async (trx) => {
  const event = (nickname, name) =>
    trx
      .insertInto('event')
      .values({
        companyID,
        name,
        nickname,
        timezone,
        dateBegin: firstDay,
        dateEnd: firstDay + 3 * 86400,
        visible: 1,
        public: 1,
        dateCreated: now,
      })
      .returning('eventID')
      .executeTakeFirstOrThrow();
  const program = await event('program-300', 'Program of 300');
  await seedProgram(
    trx,
    { eventID: program.eventID, companyID, timezone, firstDay },
    { days: 3, activities: 300, speakers: 60 },
    now,
  );
  const signup = await event('signup', 'Open registration');
  // PROGRAMS=n: n more public events with a 60-activity program each (bench/mixed.mjs reads them).
  const programs = [];
  for (let i = 0; i < Number(process.env.PROGRAMS ?? 0); i++) {
    const e = await event(`program-${i}`, `Program ${i}`);
    await seedProgram(
      trx,
      { eventID: e.eventID, companyID, timezone, firstDay },
      { days: 2, activities: 60, speakers: 20 },
      now,
    );
    programs.push(e.eventID);
  }
  return { program: program.eventID, signup: signup.eventID, programs };
});
await db.destroy();
console.log(JSON.stringify(ids));
