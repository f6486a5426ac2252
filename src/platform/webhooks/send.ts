import { createRequire } from 'node:module';
import type { Agent } from 'undici';
import { RefusedAddress, safeAddress, type Resolver } from './guard.ts';

// One POST of one delivery: no redirects followed (undici's request never follows them), a deadline
// over the whole exchange, the first 1 KB of the answer kept for the log. The connection goes to the
// address the guard checked (undici's connect `lookup` is the guard), never to a second resolution.

const KEEP_BYTES = 1024;

// undici is loaded at the first delivery, not when a worker starts (docs/api/reports.md "Memory").
const load = createRequire(import.meta.url);
const undici = () => load('undici') as typeof import('undici');

/** A guarded agent, made at its first use. */
export interface LazyAgent {
  get(): Agent;
  close(): Promise<void>;
}

export interface Outcome {
  /** HTTP status; 0 without an answer. */
  readonly status: number;
  readonly latencyMs: number;
  /** The first 1 KB of the answer, or why there was none. */
  readonly response: string;
  /** Seconds the receiver asked to wait (Retry-After), when it did. */
  readonly retryAfterMs?: number;
  /** No answer because the deadline passed. */
  readonly timedOut?: boolean;
  /** The guard refused the address. */
  readonly refused?: boolean;
}

export interface SendOptions {
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly resolve: Resolver;
  readonly now: () => number;
}

/** Retry-After as seconds or an HTTP date, in ms from `nowMs`. */
export function retryAfterOf(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** An agent per options: its connect lookup resolves through the guard. Made at its first use. */
export function guardedAgent(o: Pick<SendOptions, 'allowPrivate' | 'resolve' | 'timeoutMs'>): LazyAgent {
  let agent: Agent | undefined;
  const make = (): Agent =>
    new (undici().Agent)({
      connectTimeout: o.timeoutMs,
      connect: {
        lookup: (hostname, _options, callback) => {
          safeAddress(hostname, o.resolve, o.allowPrivate).then(
            (a) => callback(null, a.address, a.family),
            (err: Error) => callback(err, '', 4),
          );
        },
      },
    });
  return {
    get: () => (agent ??= make()),
    close: async () => {
      await agent?.close();
    },
  };
}

export async function post(
  agent: LazyAgent,
  url: string,
  headers: Record<string, string>,
  body: string,
  o: SendOptions,
): Promise<Outcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  // A timer cleared once answered: AbortSignal.timeout's would fire anyway, seconds after every
  // delivery, and make an exception (with its stack) each time.
  const deadline = new AbortController();
  const signal = deadline.signal;
  const timer = setTimeout(() => deadline.abort(), o.timeoutMs);
  try {
    // An address written as an IP never goes through lookup: the guard checks it here.
    const host = new URL(url).hostname;
    await safeAddressIfLiteral(host, o);
    const res = await undici().request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Podium-Webhooks/1' },
      body,
      dispatcher: agent.get(),
      signal,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
    });
    let kept = Buffer.alloc(0);
    try {
      for await (const chunk of res.body) {
        kept = Buffer.concat([kept, chunk as Buffer]);
        if (kept.length >= KEEP_BYTES) break;
      }
    } finally {
      res.body.destroy();
    }
    return {
      status: res.statusCode,
      latencyMs: latency(),
      response: kept.subarray(0, KEEP_BYTES).toString('utf8'),
      retryAfterMs: retryAfterOf(res.headers['retry-after'], o.now()),
    };
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    const refused = [err, cause].find((e) => e instanceof RefusedAddress) as RefusedAddress | undefined;
    if (refused) return { status: 0, latencyMs: latency(), response: refused.message, refused: true };
    const timedOut = signal.aborted;
    const message = timedOut ? `no answer within ${o.timeoutMs} ms` : `${(err as Error).message}`.split('\n')[0];
    return { status: 0, latencyMs: latency(), response: message.slice(0, 300), timedOut };
  } finally {
    clearTimeout(timer);
  }
}

async function safeAddressIfLiteral(host: string, o: SendOptions): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(bare) || bare.includes(':')) await safeAddress(bare, o.resolve, o.allowPrivate);
}
