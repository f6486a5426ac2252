// A Server-Sent Events reader for the tests: opens a stream with fetch, parses it with the same
// library as the site (eventsource-parser) and keeps every message and comment it heard.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  /** The body of an answer that is not a stream (an error line). */
  readonly text: string;
  readonly messages: EventSourceMessage[];
  readonly comments: string[];
  /** The last id heard, a message's or one sent alone (as EventSource's lastEventId); '' before any. */
  readonly lastId: () => string;
  /** Resolves when the server ended the stream. */
  readonly ended: Promise<void>;
  /** The first message (from `from` on) for which `test` holds; fails after `timeoutMs`. */
  next(test: (m: EventSourceMessage) => boolean, from?: number, timeoutMs?: number): Promise<EventSourceMessage>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  let lastId = '';
  let wake = () => {};
  const isStream = res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const text = isStream ? '' : await res.text();
  const ended = (async () => {
    if (!isStream || !res.body) return;
    const parser = createParser({
      onId: (id) => {
        lastId = id;
        wake();
      },
      onEvent: (m) => {
        messages.push(m);
        wake();
      },
      onComment: (c) => {
        comments.push(c);
        wake();
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    text,
    messages,
    comments,
    lastId: () => lastId,
    ended,
    async next(test, from = 0, timeoutMs = 3000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.slice(from).find(test);
        if (found) return found;
        if (Date.now() > end) throw new Error(`no such message in ${timeoutMs} ms; heard ${JSON.stringify(messages)}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
    },
    close: () => abort.abort(),
  };
}
