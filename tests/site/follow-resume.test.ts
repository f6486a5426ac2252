// The site's change follower (src/client/follow.ts) against a stand-in stream on loopback: a stream that
// drops before any change is resumed with the id the platform opened it with, and what the site kept
// stays fresh; without such an id, a reconnection makes everything stale (as before the platform sent it).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeFollower, type FollowEvent } from '../../src/client/follow.ts';
import { until } from '../helpers/processes.ts';

let server: Server | undefined;
let follower: ChangeFollower | undefined;
afterEach(async () => {
  await follower?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

/** Streams that open with `opening` (after the platform's own first lines): the first ends at once. */
async function standIn(opening: string): Promise<{ url: string; asked: IncomingMessage[] }> {
  const asked: IncomingMessage[] = [];
  server = createServer((req, res) => {
    asked.push(req);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    res.write(`retry: 2000\n: open\n\n${opening}`);
    if (asked.length === 1) res.end();
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

describe('the change follower after its stream drops', () => {
  it.each([
    ['resumes from the id the stream opened with, keeping what it kept', 'id: 7\n\n', '7', 1],
    ['starts over when the stream gave no id', '', undefined, 2],
    [
      "resumes after the last message's id",
      'id: 7\n\nid: 9\nevent: change\ndata: {"changeID":"9","companyID":"1","eventID":""}\n\n',
      '9',
      1,
    ],
  ])('%s', async (_label, opening, resumedWith, staleAll) => {
    const { url, asked } = await standIn(opening);
    const events: FollowEvent[] = [];
    follower = new ChangeFollower({ baseUrl: url, retryMs: 10 });
    follower.watch((e) => events.push(e));
    await until(async () => asked.length >= 2, 'a reconnection');
    expect(asked[0].headers['last-event-id']).toBeUndefined();
    expect(asked[1].headers['last-event-id']).toBe(resumedWith);
    // Everything went stale when the first stream opened; again on the second only without an id.
    await until(async () => events.filter((e) => 'live' in e && e.live).length >= 2, 'live twice');
    expect(events.filter((e) => 'all' in e).length).toBe(staleAll);
  });
});
