// Issue 9, item 4: the access-code gate neither falls nor locks out. At most 20 wrong codes per event
// per hour are evaluated from all addresses together; after that every code needs a solved proof-of-work
// challenge (ALTCHA), so the right code is still admitted within seconds. The rate-limit windows run on
// a clock the test moves (startPlatform's `now`), so an hour of attack takes seconds.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChallenge, solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { loadConfig } from '../../src/platform/config.ts';
import { startPlatform } from '../../src/platform/server.ts';
import { newChallenge } from '../../src/platform/auth/altcha.ts';
import { memoryCounter, type Counter } from '../../src/platform/limits/counter.ts';
import checkAccessCode from '../../src/platform/resources/event/operations/checkAccessCode.ts';
import type { Context } from '../../src/platform/kernel/table.ts';
import { maskAddress } from '../../src/platform/resources/event/access-code-failures.ts';
import { throttleAddress } from '../../src/platform/limits/address.ts';
import { STORES, TestPlatform, freshStore, world, type StoreKind, type World } from '../helpers/platform.ts';

const MINUTE = 60_000;
const CODE = '4321';

/** The platform with TRUST_PROXY (X-Forwarded-For names the caller) and a movable clock for its counters. */
async function startGatePlatform(kind: StoreKind, clock: () => number): Promise<TestPlatform> {
  const store = await freshStore(kind);
  const config = loadConfig({
    DATABASE_URL: store.url,
    API_PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_CLIENT: '100000',
    RATE_LIMIT_TOKEN: '100000',
    SEED_DEMO: '0',
    TRUST_PROXY: '127.0.0.1',
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  return new TestPlatform(await startPlatform(config, { logStream, now: clock }), logs, store.drop);
}

/** ALTCHA's payload (base64 of { challenge, solution }) for a challenge, solved as a browser would. */
async function solved(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

describe('throttleAddress counts IPv4 per address, IPv6 per /64', () => {
  it.each([
    ['203.0.113.77', '203.0.113.77'],
    ['::ffff:198.51.100.9', '198.51.100.9'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:8d3::/64'],
    ['2001:DB8:0:1::1', '2001:db8:0:1::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['not an address', 'not an address'],
  ])('%s → %s', (ip, key) => expect(throttleAddress(ip)).toBe(key));
});

describe('maskAddress keeps only the network', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0/24'],
    ['::ffff:198.51.100.9', '198.51.100.0/24'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::/48'],
    ['2001:DB8::1', '2001:db8:0::/48'],
    ['::1', '0:0:0::/48'],
    ['fe80::1%eth0', 'fe80:0:0::/48'],
    ['not an address', 'unknown'],
    ['1:2:3', 'unknown'],
  ])('%s → %s', (ip, masked) => expect(maskAddress(ip)).toBe(masked));
});

describe.each(STORES)('the access-code gate on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let offset = 0;
  const clock = () => Date.now() + offset;

  beforeAll(async () => {
    p = await startGatePlatform(kind, clock);
    w = await world(p);
  });
  afterAll(() => p?.close());

  let events = 0;
  /** A new private event of company A with access code CODE (each test spends its own budget). */
  async function privateEvent(): Promise<string> {
    events += 1;
    const [e] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: `Gate ${events}`, nickname: `gate-${events}` },
    });
    for (const [key, value] of [
      ['visible', '1'],
      ['accessCode', CODE],
      ['public', '0'],
    ])
      await p.ok('event.edit', { token: w.adminA, query: { eventID: e.eventID, key }, body: { value } });
    return e.eventID;
  }

  const check = (eventID: string, accessCode: string, ip: string, altcha?: string) =>
    p.call('event.checkAccessCode', {
      query: { eventID },
      body: { accessCode, ...(altcha === undefined ? {} : { altcha }) },
      headers: { 'x-forwarded-for': ip },
    });

  /** A challenge of event.accessCode.challenge, solved. */
  async function solve(eventID: string, ip = '192.0.2.1'): Promise<string> {
    const [row] = await p.ok('event.accessCode.challenge', {
      query: { eventID },
      headers: { 'x-forwarded-for': ip },
    });
    return solved(JSON.parse(row.challenge) as Challenge);
  }

  /** `n` wrong codes from `n` addresses (one each, so no address reaches its own limit). */
  async function spend(eventID: string, n: number, net: string) {
    for (let i = 1; i <= n; i++)
      expect((await check(eventID, String(1000 + i), `${net}.${i}`)).data[0].correct).toBe('0');
  }

  it('admits the right code without a challenge while the budget lasts, then asks for one (428)', async () => {
    const eventID = await privateEvent();
    await spend(eventID, 19, '198.51.100');
    const [right] = (await check(eventID, CODE, '192.0.2.10')).data;
    expect(right).toMatchObject({ correct: '1', grant: expect.stringMatching(/^\d+\.\d+\./) });
    await spend(eventID, 1, '198.51.101');
    // Neither a wrong nor the right code is looked at without a solved challenge.
    for (const code of ['1234', CODE]) {
      const r = await check(eventID, code, '192.0.2.11');
      expect(r.status).toBe(428);
      expect(r.text).toMatch(/^428 too many wrong codes for this event: solve event\.accessCode\.challenge/);
    }
    expect((await check(eventID, CODE, '192.0.2.11', await solve(eventID))).data[0].correct).toBe('1');
  });

  it('50 addresses for an hour: at most 20 wrong codes evaluated, the right code still admitted within seconds', async () => {
    const eventID = await privateEvent();
    const seen = { evaluated: 0, challengeNeeded: 0, other: 0 };
    const admitted: number[] = [];
    /** A new visitor with the right code: refused without a challenge, then solves one and gets in. */
    const visitor = async (ip: string) => {
      const started = performance.now();
      const first = await check(eventID, CODE, ip);
      expect(first.status).toBe(428);
      const again = await check(eventID, CODE, ip, await solve(eventID, ip));
      expect(again.data[0]).toMatchObject({ correct: '1', grant: expect.stringMatching(/^\d+\.\d+\./) });
      admitted.push(performance.now() - started);
    };
    let next = 1;
    for (let minute = 0; minute < 60; minute++) {
      // Every address tries a new code every minute, all at once.
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, a) => check(eventID, String(next++ % 9999 || 1), `203.0.113.${a + 1}`)),
      );
      for (const r of answers) {
        if (r.status === 200 && r.data[0].correct === '0') seen.evaluated += 1;
        else if (r.status === 428) seen.challengeNeeded += 1;
        else seen.other += 1;
      }
      if (minute === 30 || minute === 59) await visitor(`192.0.2.${100 + minute}`);
      offset += MINUTE;
    }
    console.log(
      `[${kind}] 50 addresses × 60 simulated minutes:`,
      seen,
      'right code admitted in ms:',
      admitted.map(Math.round),
    );
    expect(seen.evaluated).toBeLessThanOrEqual(20);
    expect(seen.evaluated + seen.challengeNeeded).toBe(3000);
    expect(admitted).toHaveLength(2);
    for (const ms of admitted) expect(ms).toBeLessThan(10_000);
    // The organizer's list agrees: exactly the evaluated ones.
    const listed = await p.call('event.accessCode.find', {
      token: w.adminA,
      query: { eventID, paginated: 1, limit: 1 },
    });
    expect(listed.total).toBe(String(seen.evaluated));
    // A new hour, a new budget.
    offset += MINUTE;
    expect((await check(eventID, '1', '203.0.113.200')).data[0].correct).toBe('0');
  });

  it('50 tries at once with a counter as slow as Redis: still at most 20 evaluated', async () => {
    // The budget is read (peek) and spent (hit) with no other try of the event in between; with a
    // counter that answers over the network, concurrent tries would otherwise all read 19 and all pass.
    const eventID = Number(await privateEvent());
    const inner = memoryCounter();
    const later = () => new Promise((r) => setTimeout(r, 2));
    const slow: Counter = {
      hit: async (key, windowMs) => (await later(), inner.hit(key, windowMs)),
      peek: async (key) => (await later(), inner.peek(key)),
      close: () => inner.close(),
    };
    const ctx = (clientIp: string) =>
      ({
        db: p.db,
        caller: undefined,
        now: Math.floor(Date.now() / 1000),
        clientIp,
        counter: slow,
      }) as unknown as Context;
    const tries = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        checkAccessCode.handler(ctx(`203.0.113.${i + 1}`), { eventID, accessCode: String(100 + i), altcha: undefined }),
      ),
    );
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(20);
    const refused = tries.filter((t): t is PromiseRejectedResult => t.status === 'rejected');
    expect(refused.map((t) => (t.reason as { status: number }).status)).toEqual(Array(30).fill(428));
  });

  it('refuses a replayed solution', async () => {
    const eventID = await privateEvent();
    await spend(eventID, 20, '198.51.102');
    const altcha = await solve(eventID);
    expect((await check(eventID, CODE, '192.0.2.20', altcha)).data[0].correct).toBe('1');
    for (const [code, ip] of [
      [CODE, '192.0.2.20'],
      ['1', '192.0.2.21'],
    ]) {
      const r = await check(eventID, code, ip, altcha);
      expect(r.status).toBe(428);
      expect(r.text).toBe('428 the challenge solution was already used: solve a new challenge');
    }
    // A wrong code spends the solution too.
    const once = await solve(eventID);
    expect((await check(eventID, '2', '192.0.2.22', once)).data[0].correct).toBe('0');
    expect((await check(eventID, CODE, '192.0.2.22', once)).status).toBe(428);
  });

  it("refuses a solution made for another event's gate", async () => {
    const [one, two] = [await privateEvent(), await privateEvent()];
    await spend(one, 20, '198.51.103');
    await spend(two, 20, '198.51.104');
    const forTwo = await solve(two);
    const r = await check(one, CODE, '192.0.2.30', forTwo);
    expect(r.status).toBe(428);
    expect(r.text).toBe('428 the challenge is for another event: solve one for this event');
    // Refused without being spent: its own event still takes it.
    expect((await check(two, CODE, '192.0.2.30', forTwo)).data[0].correct).toBe('1');
  });

  it('refuses forged, tampered, unsolved, expired and malformed solutions', async () => {
    const eventID = await privateEvent();
    await spend(eventID, 20, '198.51.105');
    const id = Number(eventID);
    const genuine = JSON.parse(
      (await p.ok('event.accessCode.challenge', { query: { eventID } }))[0].challenge,
    ) as Challenge;
    const solution = await solveChallenge({ challenge: genuine, deriveKey });
    const payload = (challenge: Challenge, s = solution) =>
      Buffer.from(JSON.stringify({ challenge, solution: s })).toString('base64');
    /** The genuine challenge and its solution, with signed parameters changed afterwards. */
    const tampered = (extra: object) => payload({ ...genuine, parameters: { ...genuine.parameters, ...extra } });
    const forged = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 10,
      counter: 1,
      deriveKey,
      data: { eventID: id },
      expiresAt: Math.floor(Date.now() / 1000) + 600,
      hmacSignatureSecret: 'a guessed key',
    });
    const expired = JSON.parse((await newChallenge(p.db, id, Math.floor(Date.now() / 1000) - 3600)).challenge);
    const unsolved = payload(genuine, { counter: 0, derivedKey: '00'.repeat(32), time: 0 });
    const cases: [string, string, RegExp][] = [
      ['signed with another key', await solved(forged), /not valid/],
      ['a cheaper cost than was signed', tampered({ cost: 1 }), /not valid/],
      ['a later expiry than was signed', tampered({ expiresAt: genuine.parameters.expiresAt! + 3600 }), /not valid/],
      ['another event written into a signed challenge', tampered({ data: { eventID: id + 1 } }), /not valid/],
      ['a wrong solution of a genuine challenge', unsolved, /not valid/],
      ['an expired challenge', await solved(expired), /expired/],
      ['not base64 JSON', 'bm90IGpzb24=', /not valid/],
      ['empty', '', /not valid|too many wrong codes/],
    ];
    for (const [what, altcha, message] of cases) {
      const r = await check(eventID, CODE, '192.0.2.40', altcha);
      expect(r.status, what).toBe(428);
      expect(r.text, what).toMatch(message);
    }
    expect((await check(eventID, CODE, '192.0.2.40', 'x'.repeat(4001))).status).toBe(400);
    // None of them spent anything: the genuine solution still works.
    expect((await check(eventID, CODE, '192.0.2.40', payload(genuine))).data[0].correct).toBe('1');
  });

  it("keeps each address's own limit: 429 after 20 wrong codes, a solved challenge or not", async () => {
    const eventID = await privateEvent();
    for (let i = 0; i < 20; i++) await check(eventID, String(2000 + i), '198.51.106.1');
    const r = await check(eventID, CODE, '198.51.106.1', await solve(eventID));
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await check(eventID, CODE, '198.51.106.2', await solve(eventID))).data[0].correct).toBe('1');
  });

  it('the challenge is for a visible event only, and names it', async () => {
    const eventID = await privateEvent();
    const [row] = await p.ok('event.accessCode.challenge', { query: { eventID } });
    expect(Object.keys(row).sort()).toEqual(['challenge', 'eventID', 'expires']);
    const challenge = JSON.parse(row.challenge) as Challenge;
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', data: { eventID: Number(eventID) } });
    expect(Number(row.expires) - Date.now() / 1000).toBeGreaterThan(500);
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 0 } });
    expect((await p.call('event.accessCode.challenge', { query: { eventID } })).status).toBe(404);
    expect((await p.call('event.accessCode.challenge', { query: { eventID: 999999 } })).status).toBe(404);
  });

  it("shows the event's admins its failed attempts (time, masked address), and nobody else", async () => {
    const eventID = await privateEvent();
    const before = Math.floor(Date.now() / 1000);
    await check(eventID, '1111', '198.51.107.9');
    await check(eventID, '2222', '2001:db8:7:1::9');
    await check(eventID, CODE, '198.51.107.10'); // the right code is no failure
    const admins = [w.adminA, w.operator];
    for (const token of admins) {
      const rows = await p.ok('event.accessCode.find', { token, query: { eventID } });
      expect(rows).toEqual([
        { eventID, time: expect.any(String), address: '2001:db8:7::/48', challenged: '0' },
        { eventID, time: expect.any(String), address: '198.51.107.0/24', challenged: '0' },
      ]);
      for (const row of rows) expect(Number(row.time)).toBeGreaterThanOrEqual(before);
      expect(JSON.stringify(rows)).not.toMatch(/1111|2222|198\.51\.107\.9/);
    }
    await spend(eventID, 18, '198.51.108');
    await check(eventID, '3333', '198.51.109.1', await solve(eventID));
    const [newest] = await p.ok('event.accessCode.find', { token: w.adminA, query: { eventID, limit: 1 } });
    expect(newest).toMatchObject({ address: '198.51.109.0/24', challenged: '1' });
    const others: [string, string | undefined, number][] = [
      ['anonymous', undefined, 401],
      ["another company's admin", w.adminB, 404],
      ['an external user of the company', w.externalA, 403],
      ["an attendee of the company's other event", w.attendee, 404],
    ];
    for (const [who, token, status] of others) {
      const r = await p.call('event.accessCode.find', { token, query: { eventID } });
      expect(r.status, who).toBe(status);
      expect(r.text, who).not.toMatch(/198\.51/);
    }
  });
});
