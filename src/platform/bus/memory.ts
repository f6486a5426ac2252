import { EventEmitter } from 'node:events';
import type { Transport } from './transport.ts';
import { decode } from './wire.ts';

// On the embedded SQLite store the API runs as one process: its buses share an emitter per store.
// Other writers of the same file (the CLI, the seed) are found by the change log's poll.

const emitters = new Map<string, EventEmitter>();

/** A transport within this process for the store named `channel`. */
export function memoryTransport(channel: string): Transport {
  let emitter = emitters.get(channel);
  if (!emitter) emitters.set(channel, (emitter = new EventEmitter().setMaxListeners(0)));
  const shared = emitter;
  let onMessage: ((text: string) => void) | undefined;
  return {
    name: 'memory',
    limit: Infinity,
    start(hooks) {
      onMessage = (text) => {
        const message = decode(text);
        if (message) hooks.receive(message);
      };
      shared.on('message', onMessage);
      hooks.listening();
    },
    send(text) {
      shared.emit('message', text);
      return Promise.resolve();
    },
    close() {
      if (onMessage) shared.off('message', onMessage);
      // The last bus of a store takes its emitter away, so the map holds only open stores.
      if (shared.listenerCount('message') === 0 && emitters.get(channel) === shared) emitters.delete(channel);
      return Promise.resolve();
    },
  };
}
