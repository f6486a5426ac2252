// The bus never throws its troubles at the process: it reports them as one plain line each. A broken
// connection retries every few seconds, so the same trouble is reported at most once per window
// instead of once per attempt.

/** What the bus needs of a logger (a pino logger fits). */
export interface BusLogger {
  warn(message: string): void;
  info(message: string): void;
}

export const silentLogger: BusLogger = { warn: () => {}, info: () => {} };

/** The first line of an error, without anything that looks like a URL's credentials. */
export function describe(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const message = String(e?.message ?? err)
    .split('\n')[0]
    .replace(/\/\/[^@/\s]*@/g, '//')
    .slice(0, 200);
  return typeof e?.code === 'string' && !message.includes(e.code) ? `${e.code} ${message}` : message;
}

/** warn(key, line): logs `line` unless a line of the same key went out less than `everyMs` ago. */
export function throttled(logger: BusLogger, everyMs = 10_000): (key: string, line: string) => void {
  // Keys are a handful of fixed names (one per kind of trouble), so this map stays small.
  const last = new Map<string, number>();
  return (key, line) => {
    const now = Date.now();
    if (now - (last.get(key) ?? -Infinity) < everyMs) return;
    last.set(key, now);
    logger.warn(line);
  };
}

/** Milliseconds before reconnect attempt `attempt` (1, 2, …): doubling from `baseMs` up to `capMs`, with jitter. */
export function backoff(attempt: number, baseMs: number, capMs = 5000): number {
  const ms = Math.min(capMs, baseMs * 2 ** Math.min(attempt - 1, 16));
  // Half to full: processes cut off together do not all come back in the same millisecond.
  return Math.round(ms * (0.5 + Math.random() / 2));
}
