// What the site writes to its log when a request fails: one plain line per failure, and — when the
// platform is down, which fails every page at once — one line when it goes, one when it is back, and
// a reminder with the count at most every REMIND_MS in between (an operator wants the news, not a
// stack trace per visitor). Paths are logged without their query: a query may carry a secret (the code
// of a password link).

import { isPodiumError, isUnreachable, type Reachability } from '../client/index.ts';

/** How often a platform that stays down is mentioned again, with the calls that failed meanwhile. */
export const REMIND_MS = 60_000;

/** An error as one line: its name and message, and where it was thrown when it is not the platform's. */
export function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err).split('\n')[0];
  const message = `${err.name}: ${err.message.split('\n')[0]}`;
  if (err.name === 'PodiumError') return message;
  // A bug's first frame (file:line) keeps the line useful without the whole stack.
  const at = /\n\s+at (?:.*\()?([^()\s]+:\d+:\d+)\)?/.exec(err.stack ?? '')?.[1];
  return at ? `${message} (at ${at})` : message;
}

/**
 * The status of a page that failed with `err`: the platform out of reach is a pause (503, with
 * Retry-After); an answer of the platform the site cannot read is a broken upstream (502, as a gateway
 * says it), not something to wait out; anything else is the site's own failure (500).
 */
export function failureStatus(err: unknown): 500 | 502 | 503 {
  if (isUnreachable(err)) return 503;
  return isPodiumError(err) && err.status === 502 ? 502 : 500;
}

/** `site: <status> <path>: <cause>`: the request's path only, never its query. */
export function failureLine(status: number, url: string, err: unknown): string {
  return `site: ${status} ${url.split('?')[0]}: ${causeOf(err)}`;
}

/** Follows whether the platform answers (ClientOptions.reachability) and says so on each change. */
export class PlatformWatch implements Reachability {
  readonly #name: string;
  readonly #log: (line: string) => void;
  readonly #now: () => number;
  #downSince: number | undefined;
  #failed = 0;
  #toldAt = 0;
  readonly #back: (() => void)[] = [];

  constructor(
    apiUrl: string,
    // console.error as it is when a line is written (a test, or a process manager, may replace it).
    log: (line: string) => void = (line) => console.error(line),
    now: () => number = Date.now,
  ) {
    // The origin and path only: a URL's user and password are not for the log.
    const url = new URL(apiUrl);
    this.#name = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    this.#log = log;
    this.#now = now;
  }

  failed(cause: string): void {
    const now = this.#now();
    this.#failed++;
    if (this.#downSince === undefined) {
      this.#downSince = this.#toldAt = now;
      this.#log(`site: the platform at ${this.#name} is unreachable (${cause}); pages answer 503 until it is back`);
    } else if (now - this.#toldAt >= REMIND_MS) {
      this.#toldAt = now;
      const seconds = Math.round((now - this.#downSince) / 1000);
      this.#log(
        `site: the platform at ${this.#name} is still unreachable (${cause}): ${this.#failed} calls failed in ${seconds} s`,
      );
    }
  }

  answered(): void {
    if (this.#downSince === undefined) return;
    const seconds = Math.round((this.#now() - this.#downSince) / 1000);
    this.#log(
      `site: the platform at ${this.#name} answers again, after ${seconds} s unreachable (${this.#failed} calls failed)`,
    );
    this.#downSince = undefined;
    this.#failed = 0;
    for (const listener of this.#back) listener();
  }

  /** `listener` runs each time the platform answers again after it was unreachable. */
  onBack(listener: () => void): void {
    this.#back.push(listener);
  }
}
