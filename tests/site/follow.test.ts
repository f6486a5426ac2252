// The site follows the platform's change stream (issue 11, item 6), against the real `podium start`
// with the demo: with no edits, serving cached pages asks the platform nothing at all; an edit shows on
// the page within a second (measured over several edits); and when the stream drops, the site goes
// back to re-checking on a timer until it is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editEvent, http, sleep, startPodium, type Podium } from './harness.ts';
import { openStream, type OpenStream } from '../helpers/sse.ts';

let p: Podium;
/** A change stream of our own, opened as soon as `podium start` had started, and when. */
let early: OpenStream;
let openedAt: number;

beforeAll(async () => {
  // Call lines (one per platform call) are logged at info: the test counts the site's calls with them.
  // The bus's poll every 2 s (not 5): the first test waits for one to have run.
  p = await startPodium({ LOG_LEVEL: 'info', BUS_POLL_MS: '2000' });
  early = await openStream(`${p.api}/change/subscribe`);
  openedAt = Date.now();
});
afterAll(async () => {
  early?.close();
  await p?.stop();
});

const get = (path: string) => http(`${p.site}${path}`);
/** Platform calls logged so far, as "GET /event/get?…" (the API logs one line per call; streams log "stream"). */
const calls = () =>
  p
    .output()
    .split('\n')
    .filter((l) => l.includes('"msg":"call"'))
    .map((l) => {
      const { req } = JSON.parse(l) as { req: { method: string; url: string } };
      return `${req.method} ${req.url}`;
    });

async function until(test: () => Promise<boolean>, ms: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await test()) return performance.now() - started;
    await sleep(5);
  }
  return Infinity;
}

describe('the site follows the change stream', () => {
  it('opens the stream at start', async () => {
    expect(await until(async () => p.output().includes('"msg":"stream"'), 5000)).toBeLessThan(5000);
  });

  it("hears nothing of the demo's seed after start: `podium start` published it before anyone listened", async () => {
    // Left to the bus's poll (BUS_POLL_MS after the first listener), the seed's changes would reach every
    // stream seconds later, and the site would drop every page and answer it had read of the demo.
    await sleep(openedAt + 3000 - Date.now());
    expect(early.messages).toEqual([]);
  });

  it('with no edits, serving cached pages asks the platform nothing (past every freshness timer)', async () => {
    const pages = ['/demo/summit', '/demo/summit/schedule', '/demo/summit/speakers', '/demo'];
    for (const page of pages) expect((await get(page)).status).toBe(200);
    // A first render's last calls may be logged after its page went out: count from when the log has
    // been quiet for a second (on a loaded machine that can take longer than any fixed pause).
    let before = calls().length;
    await until(async () => {
      await sleep(1000);
      const seen = calls().length;
      return seen === before || ((before = seen), false);
    }, 15_000);
    // Longer than SITE_DATA_FRESH_MS (1 s) and the page re-check timer (2 s) of the timed mode.
    for (let round = 0; round < 6; round++) {
      for (const page of pages) expect((await get(page)).status).toBe(200);
      await sleep(500);
    }
    // The calls themselves, so that a failure says which reads the site made.
    expect(calls().slice(before)).toEqual([]);
  });

  it('an edit shows on the cached page within a second (p99 over 15 edits)', async () => {
    const took: number[] = [];
    for (let i = 0; i < 15; i++) {
      const name = `Podium Summit edit ${i}`;
      await get('/demo/summit/schedule'); // cached
      await editEvent(p, 1, 'name', name);
      took.push(await until(async () => (await get('/demo/summit/schedule')).text.includes(name), 2000));
    }
    took.sort((a, b) => a - b);
    console.log(
      `edit → visible on the site's cached schedule page, ms: p50 ${took[7].toFixed(1)}, max ${took[14].toFixed(1)}`,
    );
    expect(took[14]).toBeLessThan(1000);
  });
});
