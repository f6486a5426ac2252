import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A webhook receiver on loopback for the tests: it verifies every delivery's signature with the
// reference library (standardwebhooks) against the secrets it is given, counts duplicates by
// webhook-id, and answers what the test scripts (500 for the first attempts, 410, a Retry-After…).

export interface Received {
  readonly id: string;
  readonly body: Record<string, unknown>;
  readonly raw: string;
  readonly headers: Record<string, string>;
  /** Which of the receiver's secrets verified it (index), -1 for none. */
  readonly verifiedBy: number;
  readonly at: number;
}

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** Secrets tried, in order, on each delivery. */
  secrets: string[];
  /** Answers, in order, then 200 for the rest: a status, or [status, headers]. */
  script: (number | [number, Record<string, string>])[];
  /** Ms each answer waits (deliveries in flight when a worker is killed). */
  delayMs: number;
  /** Deliveries seen more than once (by webhook-id). */
  duplicates(): number;
  until(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const r = { secrets: [] as string[], script: [] as Receiver['script'], delayMs: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      const verifiedBy = r.secrets.findIndex((s) => {
        try {
          new Webhook(s).verify(raw, headers);
          return true;
        } catch {
          return false;
        }
      });
      const next = r.script.shift() ?? 200;
      const [status, extra] = Array.isArray(next) ? next : [next, {}];
      // Only what was answered 2xx counts as received (once the answer is sent).
      if (status >= 200 && status < 300)
        setTimeout(
          () =>
            received.push({
              id: headers['webhook-id'],
              body: JSON.parse(raw),
              raw,
              headers,
              verifiedBy,
              at: Date.now(),
            }),
          r.delayMs,
        );
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain', ...extra });
        res.end(`answer ${status}`);
      }, r.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get secrets() {
      return r.secrets;
    },
    set secrets(v) {
      r.secrets = v;
    },
    get script() {
      return r.script;
    },
    set script(v) {
      r.script = v;
    },
    get delayMs() {
      return r.delayMs;
    },
    set delayMs(v) {
      r.delayMs = v;
    },
    duplicates: () => received.length - new Set(received.map((x) => x.id)).size,
    async until(count, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > end) throw new Error(`${received.length} deliveries after ${timeoutMs} ms, not ${count}`);
        await new Promise((res) => setTimeout(res, 20));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
