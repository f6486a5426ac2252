import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import { STORES, checkAnswer, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

// Issue 9 item 3: query strings and form bodies are parsed in time linear in their length, and one
// holds at most PARAM_LIMIT parameters. Before, every repeated key copied the array built so far: a
// body of `a=&` × 40,000 (117 KiB) held the only event loop for 8 s, and every other call waited.

const FORM = 'application/x-www-form-urlencoded';
const { BODY_LIMIT, PARAM_LIMIT } = loadConfig({});
/** A body of repeated keys exactly as large as the platform accepts (1 MiB, ~350,000 keys). */
const HUGE_BODY = 'a=&'.repeat(Math.floor(BODY_LIMIT / 3));
/** A query of repeated keys as long as Node accepts in a request head (16 KB): 5,000 keys in 15 KB. */
const LONG_QUERY = `action=api.ping&${'a=&'.repeat(5000)}`;
/** What "answers at once" means: the whole call, client included. */
const PROMPT_MS = 100;
/**
 * The bound for parsing ~350,000 keys whole (about 40 ms here; 2 cores shared with other suites).
 * Quadratic parsing is minutes at that size (8 s for 40,000 keys), so it still fails clearly.
 */
const LINEAR_MS = 1000;
/** Longest wait of a call that stands beside a failing one (on main it was seconds to minutes). */
const DEADLINE_MS = 5000;

/** A worker's script: `senders` loops that each POST `bodies` bodies of `a=&` × bytes/3. */
const SENDERS = `
const { parentPort, workerData: w } = require('node:worker_threads');
const body = 'a=&'.repeat(Math.floor(w.bytes / 3));
const headers = { 'content-type': '${FORM}' };
async function send() {
  const statuses = [];
  for (let i = 0; i < w.bodies; i++) {
    const res = await fetch(w.url, { method: 'POST', headers, body });
    await res.text();
    statuses.push(res.status);
  }
  return statuses;
}
Promise.all(Array.from({ length: w.senders }, send)).then(
  (all) => parentPort.postMessage(all.flat()),
  (err) => parentPort.postMessage(String(err)),
);
`;

interface Timed {
  status: number;
  text: string;
  ms: number;
}

async function timed(url: string, init: RequestInit = {}): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(DEADLINE_MS) });
  const text = await res.text();
  const ms = performance.now() - started;
  checkAnswer(res.status, res.headers.get('content-type') ?? '', text);
  return { status: res.status, text, ms };
}

const post = (p: TestPlatform, query: string, body: string) =>
  timed(`${p.url}/?${query}`, { method: 'POST', headers: { 'content-type': FORM }, body });

describe.each(STORES)('parsing in linear time, with a cap on parameters (%s)', (store) => {
  // `capped` runs with the default PARAM_LIMIT; `lifted` with the cap at its maximum, so that the
  // huge inputs are really parsed, which is what shows the parser itself is linear.
  let capped: TestPlatform;
  let lifted: TestPlatform;
  beforeAll(async () => {
    capped = await startTestPlatform(store);
    lifted = await startTestPlatform(store, { PARAM_LIMIT: '1000000' });
    // Warm both paths (JIT, connection) so the timings below measure parsing, not a first call.
    for (const p of [capped, lifted]) {
      await post(p, 'action=api.ping', 'a=&'.repeat(500));
      await timed(`${p.url}/?action=api.ping`);
    }
  });
  afterAll(async () => {
    await capped?.close();
    await lifted?.close();
  });

  // A canary first: 40,000 keys took 8 s on main. If the parser is that slow, the 1 MiB cases below
  // fail at once instead of holding this file's only event loop (server and client) for minutes.
  let slowParser = false;
  const huge = (send: () => Promise<Timed>) => () => {
    if (slowParser) expect.fail('the parser is not linear (see the 40,000-key case), so no 1 MiB body is sent');
    return send();
  };
  it(`canary: a body of 40,000 repeated keys (117 KiB) is parsed within ${LINEAR_MS} ms`, async () => {
    slowParser = true; // until shown otherwise: the call may also fail by its deadline
    const r = await post(lifted, 'action=api.ping', 'a=&'.repeat(40_000));
    expect(r.text).toMatch(parsed);
    expect(r.ms).toBeLessThan(LINEAR_MS);
    slowParser = false;
  });

  const tooManyInBody = new RegExp(`^413 request body has more than ${PARAM_LIMIT} parameters$`);
  const tooManyInQuery = new RegExp(`^400 query has more than ${PARAM_LIMIT} parameters$`);
  // Parsed whole, then refused by name: api.ping takes no parameter `a`. The refusal comes only after
  // the parser went through every key, so its time is still the parser's.
  const parsed = /^400 a is not a parameter of api\.ping/;
  const cases: [label: string, status: number, send: () => Promise<Timed>, line: RegExp, ms: number][] = [
    ['a 1 MiB body is refused', 413, huge(() => post(capped, 'action=api.ping', HUGE_BODY)), tooManyInBody, PROMPT_MS],
    ['a 16 KB query on GET is refused', 400, () => timed(`${capped.url}/?${LONG_QUERY}`), tooManyInQuery, PROMPT_MS],
    ['a 16 KB query on POST is refused', 400, () => post(capped, LONG_QUERY, ''), tooManyInQuery, PROMPT_MS],
    // With the cap lifted, the same inputs are parsed whole: the parser itself is linear.
    [
      'cap lifted: a 1 MiB body is parsed',
      400,
      huge(() => post(lifted, 'action=api.ping', HUGE_BODY)),
      parsed,
      LINEAR_MS,
    ],
    ['cap lifted: a 16 KB query on GET is parsed', 400, () => timed(`${lifted.url}/?${LONG_QUERY}`), parsed, PROMPT_MS],
    ['cap lifted: a 16 KB query on POST is parsed', 400, () => post(lifted, LONG_QUERY, ''), parsed, PROMPT_MS],
  ];
  // The best of three tries is held to the bound: other suites share the 2 cores, and a scheduler
  // pause can slow one call; a parser that is not linear is slow every time.
  it.each(cases)('repeated keys: %s (%i) within its bound', async (_label, status, send, line, ms) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await send();
      expect(r.status).toBe(status);
      expect(r.text).toMatch(line);
      times.push(r.ms);
    }
    expect(Math.min(...times), `times ${times.map(Math.round).join(', ')} ms`).toBeLessThan(ms);
  });

  // The cap counts parameters, not `&`: empty pieces are not parameters; PARAM_LIMIT of them pass the
  // cap (and are then refused by name).
  it.each([
    ['exactly PARAM_LIMIT repeated keys (and a trailing &)', parsed, `${'a=&'.repeat(PARAM_LIMIT)}`],
    ['PARAM_LIMIT keys with empty pieces between them', parsed, `${'a=1&&'.repeat(PARAM_LIMIT)}`],
    ['PARAM_LIMIT + 1 keys', tooManyInBody, `${'a=&'.repeat(PARAM_LIMIT)}b=1`],
  ])('a body of %s answers %s', async (_label, line, body) => {
    expect((await post(capped, 'action=api.ping', body)).text).toMatch(line);
  });
  it.each([
    ['exactly PARAM_LIMIT keys, action included', parsed, `action=api.ping${'&a='.repeat(PARAM_LIMIT - 1)}`],
    ['PARAM_LIMIT + 1 keys', tooManyInQuery, `action=api.ping${'&a='.repeat(PARAM_LIMIT)}`],
  ])('a query of %s answers %s on GET and POST', async (_label, line, query) => {
    expect((await timed(`${capped.url}/?${query}`)).text).toMatch(line);
    expect((await post(capped, query, '')).text).toMatch(line);
  });

  // Parsing happens on the only event loop: while huge bodies keep arriving, a ping must still
  // answer at once. On main the first body held the loop for minutes, and every ping waited. The
  // bodies come from a worker thread, so the pings measure the server, not this file's sending.
  // Three pings in four within PROMPT_MS and none over a second: other suites share the 2 cores (CI
  // once saw five pings in a row at 125-150 ms while heavy suites ran beside it; a parser that
  // is not linear holds every ping for seconds).
  it(`while 1 MiB bodies of repeated keys keep arriving, other calls answer within ${PROMPT_MS} ms`, async () => {
    if (slowParser) expect.fail('the parser is not linear (see the 40,000-key case), so no 1 MiB body is sent');
    const worker = new Worker(SENDERS, {
      eval: true,
      workerData: { url: `${capped.url}/?action=api.ping`, bytes: BODY_LIMIT, senders: 4, bodies: 6 },
    });
    try {
      const done = new Promise<unknown>((resolve) => worker.once('message', resolve));
      let sending = true;
      void done.finally(() => (sending = false));
      const pings: number[] = [];
      while (sending) {
        const ping = await timed(`${capped.url}/?action=api.ping`);
        expect(ping.status).toBe(200);
        pings.push(ping.ms);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await done).toEqual(Array.from({ length: 24 }, () => 413));
      const said = `ping times ${pings.map(Math.round).join(', ')} ms`;
      const sorted = [...pings].sort((a, b) => a - b);
      expect(pings.length, said).toBeGreaterThanOrEqual(10);
      expect(sorted[Math.floor(0.75 * (sorted.length - 1))], said).toBeLessThan(PROMPT_MS);
      expect(sorted.at(-1), said).toBeLessThan(1000);
    } finally {
      await worker.terminate();
    }
  });
});
