import { afterEach, describe, expect, it } from 'vitest';
import { startRounds, type Rounds } from '../../src/platform/jobs/rounds.ts';

// The loop of rounds the webhooks' feed and the search index run on (src/platform/jobs/rounds.ts):
// pokes during a round ask for one more, a full page runs the next at once, and a poked round waits
// for the gap after the last one, so a stream of changes is taken a gap's worth at a time.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOUR = 3_600_000;

let rounds: Rounds | undefined;
afterEach(async () => {
  await rounds?.stop();
  rounds = undefined;
});

/** A loop whose rounds take `roundMs` and answer what `answers` gives (0 when empty); its start times. */
function loop(gapMs: number, roundMs = 1, answers: number[] = []) {
  const starts: number[] = [];
  rounds = startRounds(
    async () => {
      starts.push(Date.now());
      await sleep(roundMs);
      return answers.shift() ?? 0;
    },
    10,
    HOUR,
    () => {},
    gapMs,
  );
  return starts;
}

describe('rounds', () => {
  it('a poke after a quiet spell runs a round at once', async () => {
    const starts = loop(200);
    await sleep(300); // the first round (at start) is past its gap
    const poked = Date.now();
    rounds!.poke();
    await sleep(20);
    expect(starts).toHaveLength(2);
    expect(starts[1] - poked).toBeLessThan(100); // not the 200 ms gap
  });

  it('a stream of pokes is taken one gap at a time', async () => {
    const starts = loop(100);
    const end = Date.now() + 500;
    while (Date.now() < end) {
      rounds!.poke();
      await sleep(2);
    }
    await sleep(150);
    // About 250 pokes in 500 ms: a round per 100 ms or so, the first at the start.
    expect(starts.length).toBeGreaterThanOrEqual(3);
    expect(starts.length).toBeLessThanOrEqual(8);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(98);
  });

  it('without a gap, a poke during a round asks for one more right after it', async () => {
    const starts = loop(0, 30);
    await sleep(5);
    rounds!.poke();
    rounds!.poke();
    await sleep(100);
    expect(starts).toHaveLength(2);
  });

  it('a full page runs the next round at once, gap or not', async () => {
    const starts = loop(1000, 1, [10, 10, 3]);
    await sleep(100);
    expect(starts).toHaveLength(3);
    expect(starts[2] - starts[0]).toBeLessThan(500); // not two 1 s gaps
  });

  it('no round runs after stop, not even one waiting for its gap', async () => {
    const starts = loop(100);
    await sleep(10);
    rounds!.poke();
    await rounds!.stop();
    await sleep(150);
    expect(starts).toHaveLength(1);
  });
});
