// A background loop of rounds, for work that follows the store rather than a job per item: the webhook
// feeder (webhooks/feed.ts) and the search index's pending attendees (resources/search/pending.ts). A
// round runs every `everyMs` and on poke() (a change committed), never two at once in this process; a
// poke during a round asks for one more after it, and a round that answers `page` or more (a full page:
// more may be waiting) runs the next at once.

export interface Rounds {
  /** Something changed: run a round now rather than at the next tick. */
  poke(): void;
  /** No more rounds; resolves once the round in hand ended. */
  stop(): Promise<void>;
}

export function startRounds(
  round: () => Promise<number>,
  page: number,
  everyMs: number,
  onError: (err: unknown) => void,
): Rounds {
  let running = false;
  let again = false;
  let stopped = false;
  let idle: Promise<void> = Promise.resolve();
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    idle = (async () => {
      try {
        do {
          again = false;
          if ((await round()) >= page) again = true;
        } while (again && !stopped);
      } catch (err) {
        onError(err);
      } finally {
        running = false;
      }
    })();
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  run();
  return {
    poke: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await idle;
    },
  };
}
