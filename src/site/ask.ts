// A request the front thread (front-worker.ts) hands the renderer (server.ts), and its answer, as
// messages between the two threads instead of HTTP over loopback: the front has already parsed the
// request, and the renderer has the answer as a Response or a stored page, so nothing is written and
// parsed a second time (docs/site.md, "The hop, measured and cut").
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { outgoingHeaders } from './astro-http.ts';

/** A visitor's request, as the front took it (a form's body read whole, at most BODY_LIMIT). */
export interface Ask {
  type: 'ask';
  /** The front's number for it (its answer's). */
  id: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The visitor's socket address (X-Forwarded-For is believed from TRUST_PROXY only, as ever). */
  peer: string | undefined;
  body: Uint8Array | undefined;
}

/**
 * The answer: its head, with the body when it is whole (`end`) — a page, one message — then, for a body
 * that comes in parts, each part; or `cut` when the body failed half-way.
 */
export type Answer =
  | { type: 'head'; id: number; status: number; headers: OutgoingHttpHeaders; body?: Uint8Array; end: boolean }
  | { type: 'body'; id: number; body: Uint8Array; end: boolean }
  | { type: 'cut'; id: number };

/** The renderer's side of one ask: sends its answer to the front, and stops if the visitor left. */
export class Reply {
  readonly #id: number;
  readonly #post: (message: Answer) => void;
  #sent = false;
  #gone = false;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(id: number, post: (message: Answer) => void) {
    this.#id = id;
    this.#post = post;
  }

  /** Whether the head has gone. */
  get headersSent(): boolean {
    return this.#sent;
  }

  /** A whole answer in one message. */
  whole(status: number, headers: OutgoingHttpHeaders, body?: Uint8Array): void {
    this.#sent = true;
    this.#post({ type: 'head', id: this.#id, status, headers, body, end: true });
  }

  /** Astro's Response: whole in one message when its body is one part (every page), else part by part. */
  async response(response: Response, head: boolean): Promise<void> {
    const headers = outgoingHeaders(response);
    const stream = response.body;
    if (!stream || head) {
      void stream?.cancel().catch(() => {});
      return this.whole(response.status, headers);
    }
    const reader = (this.#reader = stream.getReader());
    try {
      let part = await reader.read();
      let next = part.done ? part : await reader.read();
      if (next.done) return this.whole(response.status, headers, part.value);
      this.#sent = true;
      this.#post({ type: 'head', id: this.#id, status: response.status, headers, body: part.value, end: false });
      for (;;) {
        part = next;
        next = await reader.read();
        // The visitor left meanwhile (the read then ends early, cancelled): nothing more goes out.
        if (this.#gone) return;
        this.#post({ type: 'body', id: this.#id, body: part.value!, end: next.done });
        if (next.done) return;
      }
    } catch {
      // The body failed half-way: the visitor must not take the part for the whole.
      if (!this.#gone) this.#post({ type: 'cut', id: this.#id });
    }
  }

  /** The answer failed after its head went: the visitor's is cut short. */
  cut(): void {
    this.#post({ type: 'cut', id: this.#id });
  }

  /** The visitor left: a body still coming is told (its stream cancelled), and nothing more is sent. */
  gone(): void {
    this.#gone = true;
    void this.#reader?.cancel().catch(() => {});
  }
}
