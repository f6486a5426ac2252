import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../platform/config.ts';
import { migrate, openStore } from '../platform/db/connect.ts';
import { startPlatform } from '../platform/server.ts';
import { isEmpty, seedDemo, type DemoSeed } from '../platform/seed/demo.ts';
import { createPerson, findPersonByUsername } from '../platform/domain/person/repository.ts';
import { hashPassword } from '../platform/auth/secrets.ts';

const USAGE = `Usage:
  podium start                                         serve the platform API (and the site, once it exists)
  podium migrate                                       bring the store's schema up to date
  podium admin create --username U --password P        create (or reset) a platform operator
  podium seed demo                                     load the demo company and events

The store is DATABASE_URL (default file:./data/podium.db); see README.md for all settings.`;

function printDemo(seed: DemoSeed, apiUrl?: string) {
  console.log(
    `Demo company "demo": event ${seed.eventID} (summit), private event ${seed.privateEventID} (access code ${seed.accessCode}).`,
  );
  if (seed.password) console.log(`Demo organizer sign-in: username ${seed.username}  password ${seed.password}`);
  if (apiUrl) console.log(`Try: curl '${apiUrl}/event/get?eventID=${seed.eventID}'`);
}

async function withStore<T>(config: Config, fn: (db: ReturnType<typeof openStore>['db']) => Promise<T>): Promise<T> {
  const { db } = openStore(config.DATABASE_URL);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'start': {
      const platform = await startPlatform(config);
      if (config.SEED_DEMO === '1' && (await isEmpty(platform.store.db))) {
        const seed = await seedDemo(platform.store.db);
        if (seed) printDemo(seed, platform.url);
      }
      console.log(`Podium API listening on ${platform.url} (store: ${platform.store.kind})`);
      const stop = async () => {
        await platform.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return -1;
    }
    case 'migrate':
      await withStore(config, async () => console.log('store is up to date'));
      return 0;
    case 'admin': {
      if (sub !== 'create') break;
      const { values } = parseArgs({
        args: rest,
        options: { username: { type: 'string' }, password: { type: 'string' } },
      });
      if (!values.username || !values.password || values.password.length < 8) {
        console.error('podium admin create needs --username and --password (at least 8 characters)');
        return 2;
      }
      const { username, password } = values;
      await withStore(config, async (db) => {
        const now = Math.floor(Date.now() / 1000);
        const existing = await findPersonByUsername(db, username);
        if (existing) {
          const passwordHash = await hashPassword(password);
          await db
            .updateTable('person')
            .set({ operator: 1, passwordHash })
            .where('personID', '=', existing.personID)
            .execute();
          console.log(`operator ${username} updated (person ${existing.personID})`);
        } else {
          const personID = await createPerson(db, { username, password, operator: true, name: username }, now);
          console.log(`operator ${username} created (person ${personID})`);
        }
      });
      return 0;
    }
    case 'seed': {
      if (sub !== 'demo') break;
      await withStore(config, async (db) => {
        const seed = await seedDemo(db);
        if (seed) printDemo(seed);
        else console.log('the demo company already exists');
      });
      return 0;
    }
  }
  console.error(USAGE);
  return 2;
}

try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
