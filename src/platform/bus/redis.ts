import { Redis } from 'ioredis';
import { backoff, describe } from './log.ts';
import type { NetworkOptions, Transport } from './transport.ts';
import { decode } from './wire.ts';

// Redis pub/sub: one connection subscribed to the store's channel, one to publish on (a subscribed
// connection can do nothing else). Pub/sub keeps nothing for a subscriber that is away, so after
// every reconnection the bus reads the change log; ioredis reconnects, and this file subscribes again
// itself (autoResubscribe off) so that it knows when the subscription is back before that read.

export interface RedisTransportOptions extends NetworkOptions {
  url: string;
}

export function redisTransport(o: RedisTransportOptions): Transport {
  const retryStrategy = (times: number) => backoff(times, o.reconnectMs);
  const sub = new Redis(o.url, {
    lazyConnect: true,
    autoResubscribe: false,
    connectionName: `${o.name}:sub`,
    retryStrategy,
    // SUBSCRIBE waits for the connection however long it takes; it is sent again on each `ready`.
    maxRetriesPerRequest: null,
  });
  const pub = new Redis(o.url, {
    lazyConnect: true,
    connectionName: `${o.name}:pub`,
    retryStrategy,
    // A publish while Redis is away fails at once instead of holding the caller: the other processes
    // read the change from the log when they are back (or at their next poll).
    enableOfflineQueue: false,
  });
  let closed = false;
  let lost = false;
  // Until the first subscription, a failed attempt is only a connect error (logged as such), not a loss.
  let listened = false;

  sub.on('error', (err) => o.warn('redis-sub', `bus: Redis subscriber: ${describe(err)}`));
  pub.on('error', (err) => o.warn('redis-pub', `bus: Redis publisher: ${describe(err)}`));
  sub.on('close', () => {
    if (closed || lost || !listened) return;
    lost = true;
    o.warn('redis-lost', 'bus: Redis subscriber connection lost; reconnecting');
  });

  return {
    name: 'redis',
    // Redis takes far bigger messages; past this a batch (a seed, an import) goes as its id range.
    limit: 64 * 1024,
    start(hooks) {
      sub.on('message', (channel: string, payload: string) => {
        if (channel !== o.channel) return;
        const message = decode(payload);
        if (message) hooks.receive(message);
        else o.warn('redis-bad', 'bus: ignored a message that is not a change batch');
      });
      sub.on('ready', () => {
        sub.subscribe(o.channel).then(
          () => {
            if (closed) return;
            if (lost) o.info('bus: Redis subscriber back; catching up from the change log');
            lost = false;
            listened = true;
            hooks.listening();
          },
          (err: unknown) => o.warn('redis-sub', `bus: Redis subscribe failed: ${describe(err)}`),
        );
      });
      // A failed first attempt is retried by ioredis like any later one (the error is logged above).
      sub.connect().catch(() => {});
      pub.connect().catch(() => {});
    },
    async send(text) {
      await pub.publish(o.channel, text);
    },
    async close() {
      closed = true;
      // disconnect(): no reconnect timer or socket is left, whatever state the connections are in.
      sub.disconnect();
      pub.disconnect();
    },
  };
}
