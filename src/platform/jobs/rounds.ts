// A background loop of rounds, for work that follows the store rather than a job per item: the webhook
// feeder (webhooks/feed.ts) and the search index's pending attendees (resources/search/pending.ts). A
// round runs every `everyMs` and on poke() (a change committed), never two at once in this process; a
// poke during a round asks for one more after it, and a round that answers `page` or more (a full page:
// more may be waiting) runs the next at once. A poked round starts at least `gapMs` after the last one
// ended: under a stream of writes, one round then takes the changes of that gap together instead of
// one round per change (three statements each: about a tenth of a registration's CPU, bench/mail.mjs).

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
  gapMs = 0,
): Rounds {
  let running = false;
  let again = false;
  let stopped = false;
  let endedAt = 0;
  let later: NodeJS.Timeout | undefined;
  let idle: Promise<void> = Promise.resolve();
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    const wait = endedAt + gapMs - Date.now();
    if (wait > 0) {
      later ??= setTimeout(() => {
        later = undefined;
        run();
      }, wait);
      return;
    }
    running = true;
    idle = (async () => {
      try {
        let full;
        do {
          again = false;
          full = (await round()) >= page;
        } while (full && !stopped);
      } catch (err) {
        onError(err);
      } finally {
        running = false;
        endedAt = Date.now();
      }
      // Poked meanwhile: one more round, after the gap.
      if (again) run();
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
      clearTimeout(later);
      await idle;
    },
  };
}
