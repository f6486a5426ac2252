// The site in this process (startSite) against a stand-in platform: what close.test.ts and
// front.test.ts share.
import { createServer, request, type IncomingMessage, type RequestOptions, type Server } from 'node:http';
import { startSite, type Site, type SiteOptions } from '../../src/site/server.ts';
import { ROOT } from './harness.ts';

export interface Held {
  server: Server;
  url: string;
  /** Resolves when the platform has been asked something (a render is waiting on it). */
  asked: Promise<void>;
  /** Answers everything asked so far and from now on. */
  release(): void;
}

/** A platform that answers every call with an empty list (the site shows "not found"), once released. */
export async function heldPlatform(): Promise<Held> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let asked!: () => void;
  const wasAsked = new Promise<void>((r) => (asked = r));
  const server = createServer((_req, res) => {
    asked();
    void released.then(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"count":"0","data":[]}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}/api`, asked: wasAsked, release };
}

/** GET over a connection of its own: the status and body, or the error the socket ended with. */
export function get(url: string, options: RequestOptions = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, ...options }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** A site reading the platform at `url`, with no page cache and no change stream. */
export function siteReading(url: string, options: Partial<SiteOptions> = {}): Promise<Site> {
  return startSite({
    root: ROOT,
    apiUrl: url,
    publicApiUrl: url,
    siteHosts: ['127.0.0.1'],
    host: '127.0.0.1',
    port: 0,
    pageCache: false,
    followChanges: false,
    ...options,
  });
}

/** The lines `run` writes with console.error. */
export async function logged(run: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console.error = log;
  }
  return errors;
}
