import type { Config } from './config.ts';
import { migrate, openStore, type Store } from './db/connect.ts';
import { createCounter } from './limits/counter.ts';
import { buildApp, type PlatformApp } from './app.ts';
import { domainChangeOf, type DomainChange } from './domains.ts';

export interface Platform {
  readonly app: PlatformApp;
  readonly store: Store;
  readonly databaseUrl: string;
  readonly url: string;
  /** Tells `listener` (the site of this process) when a custom domain's event changed; returns its removal. */
  onDomainChange(listener: (change: DomainChange) => void): () => void;
  close(): Promise<void>;
}

/** Opens the store, migrates it, and serves the API on HOST:API_PORT (port 0 picks a free one). */
export async function startPlatform(
  config: Config,
  /** `now`: the clock (ms) of the rate-limit windows without Redis; tests simulate hours with it. */
  opts: { logStream?: NodeJS.WritableStream; now?: () => number } = {},
): Promise<Platform> {
  const store = openStore(config.DATABASE_URL);
  await migrate(store.db);
  const counter = createCounter(config.REDIS_URL, opts.now);
  const app = await buildApp({ config, db: store.db, counter, logStream: opts.logStream });
  const port = await app.listen(config.HOST, config.API_PORT);
  return {
    app,
    store,
    databaseUrl: config.DATABASE_URL,
    url: `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`,
    onDomainChange(listener) {
      return app.dispatcher.onCommit((committed) => {
        const change = domainChangeOf(committed);
        if (change) listener(change);
      });
    },
    async close() {
      await app.close();
      await counter.close();
      await store.db.destroy();
    },
  };
}
