import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../platform/config.ts';
import { migrate, openStore } from '../platform/db/connect.ts';
import { startPlatform } from '../platform/server.ts';
import { isEmpty, seedDemo, type DemoSeed } from '../platform/seed/demo.ts';
import { createPerson, findPersonByUsername, makeOperator } from '../platform/resources/person/repository.ts';
import { hashPassword } from '../platform/auth/secrets.ts';
import { recordChange } from '../platform/resources/change/log.ts';
import { ensureBuilt } from '../site/build.ts';
import { startSite, type Site } from '../site/server.ts';
import { PodiumError } from '../client/errors.ts';
import { startFailure } from './errors.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The key the site proves itself with when it names its visitor to the platform (so the platform's
 * per-client limits count each visitor, not the site): SITE_API_KEY, or — when this process serves both
 * and none is set — one made for this run. With PODIUM_API_URL it must be that platform's SITE_API_KEY.
 */
function siteKeyOf(config: Config, withSite: boolean): string | undefined {
  if (config.SITE_API_KEY || !withSite || config.PODIUM_API_URL) return config.SITE_API_KEY;
  return randomBytes(32).toString('base64url');
}

function apiUrlOf(config: Config, platformUrl: string): string {
  if (config.PODIUM_API_URL) return config.PODIUM_API_URL;
  const port = new URL(platformUrl).port;
  const h = config.HOST;
  const loopbackOrAny = ['0.0.0.0', '::', 'localhost'].includes(h) || h.startsWith('127.');
  return loopbackOrAny ? `http://127.0.0.1:${port}` : platformUrl;
}

/** The API's address as browsers reach it: the registration widget's, and the demo pictures'. */
function publicApiUrlOf(config: Config, platformUrl: string): string {
  return config.PUBLIC_API_URL ?? (config.PODIUM_API_URL || platformUrl);
}

async function serveSite(config: Config, platformUrl: string, siteKey: string | undefined): Promise<Site> {
  await ensureBuilt(ROOT, { log: (line) => console.log(line) });
  const apiUrl = apiUrlOf(config, platformUrl);
  const site = await startSite({
    root: ROOT,
    apiUrl,
    publicApiUrl: publicApiUrlOf(config, platformUrl),
    siteUrl: config.SITE_URL,
    siteHosts: config.SITE_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    host: config.HOST,
    port: config.SITE_PORT,
    trustProxy: config.TRUST_PROXY,
    siteKey,
    pageCache: config.SITE_PAGE_CACHE === '1',
    dataFreshMs: config.SITE_DATA_FRESH_MS,
    appScheme: config.APP_SCHEME,
  });
  // The platform home reads it from the runtime.
  site.runtime.directory = config.SITE_DIRECTORY;
  return site;
}

/**
 * A site reading another process's platform (PODIUM_API_URL) pings it, and asks whether it takes the site's key:
 * a key that differs is not refused by the calls themselves, the platform only counts every visitor as
 * the site (one allowance for all), so without this nobody would know. One line, and start goes on.
 * Asked again whenever the platform answers after being unreachable: it may have been down at start
 * (the first check then could not be made), or come back redeployed with another key.
 */
function checkPlatform(site: Site, command: string, hasKey: boolean): void {
  const check = async () => {
    try {
      const verdict = await site.runtime.client.siteKeyVerdict();
      if (verdict === 'refused')
        console.warn(
          `podium ${command}: the platform at PODIUM_API_URL refused this SITE_API_KEY: set the platform's own, or it counts every visitor of the site as one client`,
        );
    } catch (err) {
      const said = err instanceof Error ? err.message : String(err);
      // An address that answers, but not as the platform (a path too many): every page would say
      // "not set up", and the domains' certificates would be refused.
      if (err instanceof PodiumError && err.status >= 400 && err.status < 500 && err.status !== 429)
        console.warn(
          `podium ${command}: the platform at PODIUM_API_URL does not answer api.ping (${err.status} ${said}): check the address`,
        );
      else if (hasKey)
        console.warn(`podium ${command}: SITE_API_KEY not checked (checked again when the platform answers): ${said}`);
      else console.warn(`podium ${command}: the platform at PODIUM_API_URL was not reached (asked again when it answers): ${said}`); // prettier-ignore
    }
  };
  site.runtime.onPlatformBack(() => void check());
  void check();
}

const USAGE = `Usage:
  podium start                                         serve the platform API and the public site (SITE=0: the API only)
  podium worker                                        run jobs only (no API, no site): jobs scale apart from the API
  podium site                                          serve the public site only, reading the platform at PODIUM_API_URL
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

/**
 * The store a command wrote, for the operator to check against the server's: a SQLite path is relative
 * to the working directory, so `admin create` run from another folder makes a new, empty store.
 * A PostgreSQL URL is shown without its password.
 */
function storeName(url: string): string {
  if (url.startsWith('file:')) return resolve(url.slice('file:'.length));
  const named = new URL(url);
  named.password = '';
  return named.toString();
}

async function withStore<T>(
  config: Config,
  fn: (db: ReturnType<typeof openStore>['db'], applied: number) => Promise<T>,
): Promise<T> {
  const { db } = openStore(config.DATABASE_URL);
  try {
    const applied = await migrate(db);
    return await fn(db, applied);
  } finally {
    await db.destroy();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'start': {
      const withSite = config.SITE === '1';
      const siteKey = siteKeyOf(config, withSite);
      const platform = await startPlatform({ ...config, SITE_API_KEY: siteKey });
      if (config.SEED_DEMO === '1' && (await isEmpty(platform.store.db))) {
        const seed = await seedDemo(
          platform.store.db,
          undefined,
          config.DEMO_START,
          publicApiUrlOf(config, platform.url),
        );
        if (seed) {
          // Published now, as an operation's changes are: else the bus's poll would find them seconds
          // later, and the site (started below) would then drop everything it had read of the demo.
          await platform.bus.publish(seed.changes);
          printDemo(seed, platform.url);
        }
      }
      console.log(`Podium API listening on ${platform.url} (store: ${platform.store.kind})`);
      let site: Site | undefined;
      let stopping = false;
      const stop = async () => {
        stopping = true;
        await site?.close();
        await platform.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (withSite) {
        try {
          site = await serveSite(config, platform.url, siteKey);
          if (stopping) await site.close();
          else {
            // One process: an edit of an event's domain reaches the site's host lookups at once.
            if (!config.PODIUM_API_URL) platform.onDomainChange((change) => site?.domainChanged(change));
            console.log(`Podium site listening on ${site.url} (platform: ${site.runtime.client.baseUrl})`);
            if (config.PODIUM_API_URL) checkPlatform(site, 'start', siteKey !== undefined);
          }
        } catch (err) {
          // The API keeps serving; the site's failure is reported, not hidden.
          if (!stopping) console.error(`Podium site could not start: ${err instanceof Error ? err.message : err}`);
        }
      }
      return -1;
    }
    case 'site': {
      // The site alone: no store, no API, no jobs. It reads the platform at PODIUM_API_URL, as any
      // client of the API does, so it runs on its own machines or next to API processes (docs/deploy.md).
      if (!config.PODIUM_API_URL) {
        console.error('podium site needs PODIUM_API_URL: the address of the platform the site reads');
        return 2;
      }
      if (!config.SITE_API_KEY)
        // Not fatal (a platform that trusts this address as a proxy reads X-Forwarded-For), but the
        // operator should know why every visitor might share one allowance (docs/site.md).
        console.warn(
          "podium site: SITE_API_KEY is not set: the platform counts this site's calls per visitor only if it trusts it as a proxy (TRUST_PROXY)",
        );
      const site = await serveSite(config, config.PODIUM_API_URL, config.SITE_API_KEY);
      const stop = async () => {
        await site.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      console.log(`Podium site listening on ${site.url} (platform: ${site.runtime.client.baseUrl})`);
      checkPlatform(site, 'site', config.SITE_API_KEY !== undefined);
      return -1;
    }
    case 'migrate':
      // Say what was done: an operator running it before a release wants to see that it did something.
      await withStore(config, async (_db, applied) =>
        console.log(
          applied === 0
            ? 'store is up to date: no migration to apply'
            : `applied ${applied} migration${applied === 1 ? '' : 's'}, store is up to date`,
        ),
      );
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
          await db.transaction().execute(async (trx) => {
            await makeOperator(trx, existing.personID, passwordHash);
            await recordChange(trx, { operation: 'cli', kind: 'person', objectID: existing.personID });
          });
          console.log(
            `operator ${username} updated (person ${existing.personID}) in ${storeName(config.DATABASE_URL)}`,
          );
        } else {
          const personID = await db.transaction().execute(async (trx) => {
            const id = await createPerson(trx, { username, password, operator: true, name: username }, now);
            await recordChange(trx, { operation: 'cli', kind: 'person', objectID: id });
            return id;
          });
          console.log(`operator ${username} created (person ${personID}) in ${storeName(config.DATABASE_URL)}`);
        }
      });
      return 0;
    }
    case 'seed': {
      if (sub !== 'demo') break;
      await withStore(config, async (db) => {
        const local = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${config.API_PORT}`;
        const seed = await seedDemo(db, undefined, config.DEMO_START, publicApiUrlOf(config, local));
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
  console.error(err instanceof ConfigError ? err.message : startFailure(err));
  process.exit(1);
}
