// The errors of the platform client: the platform's `NNN message` line (spec §7) as a typed error.

/** A failed call: `status` is the HTTP status of the platform's `NNN message` line (or 502/504 for transport). */
export class PodiumError extends Error {
  readonly status: number;
  /** Seconds from the platform's Retry-After (429), when it sent one. */
  readonly retryAfter: number | undefined;
  /** The operation that failed, e.g. `event.get`. */
  readonly operation: string;

  constructor(status: number, message: string, operation: string, retryAfter?: number) {
    super(message);
    this.name = 'PodiumError';
    this.status = status;
    this.operation = operation;
    this.retryAfter = retryAfter;
  }
}

/**
 * Whether `err` is a PodiumError. By shape, not `instanceof`: the site's built pages and the front server
 * load this module separately (the bundle has its own copy of the class).
 */
export function isPodiumError(err: unknown): err is PodiumError {
  return err instanceof Error && err.name === 'PodiumError' && typeof (err as { status?: unknown }).status === 'number';
}

/** Whether the call never reached the platform (refused, timed out, a proxy's 502/504): not a page's fault. */
export const isUnreachable = (err: unknown): boolean =>
  isPodiumError(err) && err.message.startsWith('platform unreachable');

export const isNotFound = (err: unknown): boolean => isPodiumError(err) && err.status === 404;
export const isForbidden = (err: unknown): boolean => isPodiumError(err) && err.status === 403;
