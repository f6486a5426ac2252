// Starts the front thread (front-worker.ts) on the site's public port and keeps it: the page cache's
// messages go to it in order, the requests it hands on come to the renderer (`asked`) and their answers
// go back, and a front that dies (it should not) is started again on the same port, told the change
// stream's state, with an empty copy the renderer fills again as pages are asked for.

import { Worker } from 'node:worker_threads';
import type { Answer, Ask } from './ask.ts';
import { sendable } from '../net/bytes.ts';
import type { FromFront, FrontData, ToFront } from './front-worker.ts';
import type { MirrorMessage } from './mirror.ts';

/**
 * The renderer's part: answers a request the front hands it, through `post` (in order), and gives back
 * what to do if the visitor leaves before the answer's end.
 */
export type Asked = (ask: Ask, post: (message: Answer) => void) => () => void;

export interface Front {
  /** Resolves with the public port (the one asked for, or the one the system chose for 0) once listening. */
  listening: Promise<number>;
  /** Sends the front's copy a change: at once, in order (the thread takes it once it runs). */
  send(message: MirrorMessage): void;
  /** Stops taking connections; answers in flight finish within `graceMs`. */
  close(graceMs: number): Promise<void>;
}

const WORKER = new URL('./front-worker.ts', import.meta.url);

/** `opening`: what the front must know first (the change stream's state), each time one starts. */
export function startFront(data: FrontData, opening: () => MirrorMessage[], asked: Asked): Front {
  let worker: Worker;
  let closing = false;
  let bound = data.port;
  let ended: Promise<void> | undefined;

  function spawn(port: number): Promise<number> {
    worker = new Worker(WORKER, { workerData: { ...data, port } satisfies FrontData });
    for (const message of opening()) toFront(worker, message);
    const current = worker;
    let listened = false;
    // This thread's requests in the renderer, by its numbers (a thread started again counts from 1).
    const answering = new Map<number, () => void>();
    const post = (message: Answer) => {
      if (message.type === 'cut' || message.end) answering.delete(message.id);
      toFront(current, message);
    };
    return new Promise((resolve, reject) => {
      current.on('message', (message: FromFront) => {
        if (message.type === 'ask') {
          answering.set(message.id, asked(message, post));
        } else if (message.type === 'gone') {
          answering.get(message.id)?.();
          answering.delete(message.id);
        } else if (message.type === 'listening') {
          listened = true;
          resolve(message.port);
        } else if (message.type === 'failed') {
          // The listen error as node:net gives it (code, address, port): the CLI says which setting to look at.
          reject(Object.assign(new Error(message.error.message), message.error));
          void current.terminate();
        }
      });
      current.on('error', (err) => {
        console.error(`site: the front thread failed: ${err.message.split('\n')[0]}`);
        reject(err);
      });
      current.on('exit', () => {
        // Its visitors' connections ended with it: what the renderer still sends them goes nowhere.
        for (const gone of answering.values()) gone();
        answering.clear();
        // One that never listened (its port taken) is not started again: its start failed, and says why.
        if (closing || current !== worker || !listened) return;
        // Started again after its end was logged (its 'error'); the port is free again once it exited.
        spawn(bound).catch((err: Error) => console.error(`site: the front thread did not start again: ${err.message}`));
      });
    });
  }

  const listening = spawn(data.port).then((port) => (bound = port));
  return {
    listening,
    send(message) {
      toFront(worker, message);
    },
    close(graceMs) {
      // Once: a second call (a test's cleanup after its own close) waits for the same end.
      ended ??= (async () => {
        closing = true;
        const closed = new Promise<void>((resolve) => {
          worker.on('message', (message: FromFront) => message.type === 'closed' && resolve());
          worker.on('exit', () => resolve());
        });
        toFront(worker, { type: 'close', graceMs });
        await closed;
        await worker.terminate();
      })();
      return ended;
    },
  };
}

/** Posts a message to the front, each body as its own bytes (src/net/bytes.ts: not the 64 KB buffer it views). */
export function toFront(worker: Worker, message: ToFront): void {
  const transfer: ArrayBuffer[] = [];
  let out = message;
  if ((message.type === 'head' || message.type === 'body') && message.body) {
    out = { ...message, body: sendable(message.body, transfer) };
  } else if (message.type === 'put') {
    const { page } = message;
    const variants: typeof page.variants = {};
    for (const [encoding, v] of Object.entries(page.variants))
      variants[encoding as keyof typeof variants] = { ...v, body: sendable(v.body, transfer) };
    out = { ...message, page: { ...page, body: sendable(page.body, transfer), variants } };
  } else if (message.type === 'variant') {
    out = { ...message, variant: { ...message.variant, body: sendable(message.variant.body, transfer) } };
  }
  worker.postMessage(out, transfer);
}
