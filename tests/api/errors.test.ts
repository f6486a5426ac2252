// Client error reports (issue 16, spec §4.8 error.create and §7.6, docs/api/errors.md): both forms of
// error.create (fields, raw JSON) with and without a token, its caps, its rate limit, what is redacted
// before a report is kept and that the answer echoes nothing; the read side (Podium extensions error.find,
// error.get, error.edit) for platform operators and for the admins of the report's company, and that
// anyone else gets exactly what a missing report gets. Both stores, both call styles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';
import { errorReportWire } from '../../src/shared/wire/error.ts';
import { redactJson, redactText } from '../../src/platform/resources/error/redact.ts';

const PER_HOUR = 1000;
const UNKNOWN = '987654321';
const TOKEN = 'Ab3_'.repeat(15); // 60 characters, like a Podium token

describe('redaction', () => {
  it.each([
    [
      'tokenID in a URL',
      `GET /?action=event.get&tokenID=${TOKEN}&eventID=7`,
      'GET /?action=event.get&tokenID=[redacted]&eventID=7',
    ],
    [
      'a password in a dump',
      'config: {"password": "hunter2", "user": "ana"}',
      'config: {"password": "[redacted]", "user": "ana"}',
    ],
    ['an API key', 'X-Api-Key: sk_live_123', 'X-Api-Key: [redacted]'],
    ['a bearer token', 'Authorization: Bearer abc.def', 'Authorization: [redacted] [redacted]'],
    ['a bearer token alone', 'sent Bearer abc.def', 'sent Bearer [redacted]'],
    ['credentials in an address', 'https://ana:s3cret@api.example.com/x', 'https://[redacted]@api.example.com/x'],
    ['a JWT', 'jwt eyJhbGciOi.eyJzdWIiOiIx.sig-_x', 'jwt [redacted]'],
    ['a long opaque run', `leaked ${TOKEN} here`, 'leaked [redacted] here'],
    [
      'a commit id stays',
      'build 0123456789abcdef0123456789abcdef01234567',
      'build 0123456789abcdef0123456789abcdef01234567',
    ],
    ['a plain stack line stays', 'at render (app.js:10:5)', 'at render (app.js:10:5)'],
  ])('%s', (_label, text, out) => {
    expect(redactText(text)).toBe(out);
  });

  it('JSON: values under secret keys whole, other strings by the text rules, bounded depth', () => {
    expect(redactJson({ user: { password: { nested: 1 }, name: 'ana' }, list: [`t=${TOKEN}`], n: 1 })).toEqual({
      user: { password: '[redacted]', name: 'ana' },
      list: ['t=[redacted]'],
      n: 1,
    });
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100; i++) deep = { d: deep };
    expect(JSON.stringify(redactJson(deep))).toContain('[redacted]');
  });

  it('is linear on hostile text', () => {
    const t = performance.now();
    redactText(`${'a'.repeat(30_000)}=`);
    redactText('token'.repeat(6000));
    redactText(`${'Bearer '.repeat(4000)}`);
    redactText(`//${'a:'.repeat(10_000)}`);
    expect(performance.now() - t).toBeLessThan(500);
  });
});

describe.each(STORES)('error reports on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let seq = 0;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { ERROR_REPORTS_PER_HOUR: String(PER_HOUR) });
    w = await world(p);
  });
  afterAll(() => p?.close());

  const stored = (errorID: string) =>
    p.db.selectFrom('errorReport').selectAll().where('errorID', '=', Number(errorID)).executeTakeFirstOrThrow();

  describe.each(STYLES)('%s style', (style) => {
    let c: Client;
    beforeAll(() => {
      c = client(p, style);
    });
    const report = (body: Record<string, string>, o: { token?: string; query?: Record<string, string> } = {}) =>
      c.call('error.create', { token: o.token, query: o.query, body });

    it('error.create with the fields: kept with its reporter, answered with its id only', async () => {
      seq++;
      const r = await report(
        {
          platform: 'ios',
          message: `Crash ${seq} calling ?tokenID=${TOKEN}`,
          STACK_TRACE: 'at main (App.swift:10)\nat start',
          INITIAL_CONFIGURATION: `{"apiKey":"k-123","eventID":7,"session":"${TOKEN}"}`,
          BUILD: '2.4.1 (301)',
        },
        { token: w.attendee, query: { eventID: w.eventA.eventID } },
      );
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.data[0]).sort()).toEqual(['date', 'errorID', 'personID', 'solved']);
      expect(r.data[0]).toMatchObject({ personID: String(w.attendeeID), solved: '0' });
      expect(r.text).not.toContain(TOKEN);
      expect(r.text).not.toContain('Crash');
      const row = await stored(r.data[0].errorID as string);
      expect(row).toMatchObject({
        personID: w.attendeeID,
        eventID: Number(w.eventA.eventID),
        companyID: Number(w.companyA.companyID),
        platform: 'ios',
        message: `Crash ${seq} calling ?tokenID=[redacted]`,
        stackTrace: 'at main (App.swift:10)\nat start',
        initialConfiguration: '{"apiKey":"[redacted]","eventID":7,"session":"[redacted]"}',
        build: '2.4.1 (301)',
        json: '',
        solved: 0,
        address: '127.0.0.0/24',
      });
      const change = await p.db.selectFrom('change').selectAll().where('operation', '=', 'error.create').orderBy('changeID', 'desc').executeTakeFirstOrThrow(); // prettier-ignore
      expect(change).toMatchObject({ kind: 'error', objectID: Number(r.data[0].errorID) });
    });

    it('error.create with a raw JSON body, and without a token', async () => {
      const json = JSON.stringify({ PLATFORM: 'android', MESSAGE: 'NPE', STACK_TRACE: 'at x', password: 'p', nested: { token: 't', ok: 'fine' } }); // prettier-ignore
      const r = await report({ json });
      expect(r.status, r.text).toBe(200);
      expect(r.data[0].personID).toBe('0');
      const row = await stored(r.data[0].errorID as string);
      expect(row).toMatchObject({ personID: 0, eventID: null, companyID: null, platform: 'android', message: 'NPE', stackTrace: 'at x' }); // prettier-ignore
      expect(JSON.parse(row.json)).toEqual({ PLATFORM: 'android', MESSAGE: 'NPE', STACK_TRACE: 'at x', password: '[redacted]', nested: { token: '[redacted]', ok: 'fine' } }); // prettier-ignore
      // A JSON body without a platform is filed as `unknown`.
      const bare = await report({ json: '{"message":"?"}' });
      expect((await stored(bare.data[0].errorID as string)).platform).toBe('unknown');
    });

    it.each([
      ['nothing', {}, {}, '400 one of these is required: platform + message; json'],
      ['a platform only', { platform: 'ios' }, {}, '400 one of these is required: platform + message; json'],
      ['json that is not an object', { json: '[1,2]' }, {}, '400 json must be a JSON object'],
      ['json that is not JSON', { json: '{oops' }, {}, '400 json must be a JSON object'],
      ['a message over 2000 characters', { platform: 'ios', message: 'x'.repeat(2001) }, {}, '400 message must be at most 2000 characters'], // prettier-ignore
      ['a platform over 40 characters', { platform: 'x'.repeat(41), message: 'm' }, {}, '400 platform must be at most 40 characters'], // prettier-ignore
      ['a stack trace over 20000 characters', { platform: 'ios', message: 'm', STACK_TRACE: 'x'.repeat(20_001) }, {}, '400 STACK_TRACE must be at most 20000 characters'], // prettier-ignore
      [
        'json over 50000 characters',
        { json: `{"a":"${'x'.repeat(50_000)}"}` },
        {},
        '400 json must be at most 50000 characters',
      ],
      ['an unknown event', { platform: 'ios', message: 'm' }, { eventID: UNKNOWN }, '404 event not found'],
    ])('error.create with %s is refused and keeps nothing', async (_label, body, query, line) => {
      const before = await p.db.selectFrom('errorReport').select('errorID').execute();
      expect((await report(body as Record<string, string>, { query })).text).toBe(line);
      expect(await p.db.selectFrom('errorReport').select('errorID').execute()).toEqual(before);
    });

    it('error.find lists every report for operators and the company’s for its admins; error.get and error.edit likewise', async () => {
      const mine = (await report({ platform: 'web', message: `company A ${++seq}` }, { query: { eventID: w.eventA.eventID } })).data[0].errorID as string; // prettier-ignore
      const theirs = (await report({ platform: 'web', message: `company B ${seq}` }, { query: { eventID: w.eventB.eventID } })).data[0].errorID as string; // prettier-ignore
      const loose = (await report({ platform: 'web', message: `no event ${seq}` })).data[0].errorID as string;

      const all = await c.ok('error.find', { token: w.operator, query: { limit: 100 } });
      expect(all.map((r) => r.errorID)).toEqual(expect.arrayContaining([mine, theirs, loose]));
      expect(Number(all[0].errorID)).toBeGreaterThan(Number(all[all.length - 1].errorID));
      for (const r of all) expect(Object.keys(r).sort()).toEqual(Object.keys(errorReportWire.shape).sort());
      const companyA = await c.ok('error.find', { token: w.adminA, query: { companyID: w.companyA.companyID, limit: 100 } }); // prettier-ignore
      expect(companyA.map((r) => r.errorID)).toContain(mine);
      expect(companyA.map((r) => r.errorID)).not.toContain(theirs);
      expect(companyA.map((r) => r.errorID)).not.toContain(loose);
      const found = await c.call('error.find', { token: w.adminA, query: { companyID: w.companyA.companyID, query: `COMPANY A ${seq}`, paginated: 1 } }); // prettier-ignore
      expect([found.total, found.data.map((r) => r.errorID)]).toEqual(['1', [mine]]);

      const [full] = await c.ok('error.get', { token: w.adminA, query: { errorID: mine } });
      expect(full).toMatchObject({ errorID: mine, platform: 'web', message: `company A ${seq}`, companyID: w.companyA.companyID, solved: '0' }); // prettier-ignore
      const [solved] = await c.ok('error.edit', { token: w.adminA, query: { errorID: mine, key: 'solved' }, body: { value: '1' } }); // prettier-ignore
      expect(solved.solved).toBe('1');
      const open = await c.ok('error.find', { token: w.adminA, query: { companyID: w.companyA.companyID, selection: 'unsolved', limit: 100 } }); // prettier-ignore
      expect(open.map((r) => r.errorID)).not.toContain(mine);
      const done = await c.ok('error.find', { token: w.operator, query: { selection: 'solved', limit: 100 } });
      expect(done.map((r) => r.errorID)).toContain(mine);
      expect((await c.ok('error.edit', { token: w.operator, query: { errorID: theirs, key: 'solved' }, body: { value: '1' } }))[0].solved).toBe('1'); // prettier-ignore
      expect((await c.call('error.edit', { token: w.operator, query: { errorID: theirs, key: 'message' }, body: { value: '1' } })).text).toBe('400 key message cannot be edited here; keys: solved'); // prettier-ignore

      // Anyone else: exactly what a missing report gets.
      for (const token of [w.adminB, w.attendee, w.attendeeSystem, w.eventAdminSystem, w.externalA])
        for (const id of [mine, loose, UNKNOWN]) {
          if (token === w.adminB && id === theirs) continue;
          expect((await c.call('error.get', { token, query: { errorID: id } })).text).toBe('404 error not found');
          expect((await c.call('error.edit', { token, query: { errorID: id, key: 'solved' }, body: { value: '0' } })).text).toBe('404 error not found'); // prettier-ignore
        }
      expect((await c.call('error.find', { token: w.adminB, query: { companyID: w.companyA.companyID } })).text).toBe('404 company not found'); // prettier-ignore
      expect((await c.call('error.find', { token: w.externalA, query: { companyID: w.companyA.companyID } })).text).toBe('403 company admin level required'); // prettier-ignore
      // Without companyID: the reports of every company the caller is an admin of; none for the others.
      const ownAll = await c.ok('error.find', { token: w.adminA, query: { limit: 100 } });
      expect(ownAll.map((r) => r.errorID)).toEqual(companyA.map((r) => r.errorID));
      const ownB = (await c.ok('error.find', { token: w.adminB, query: { limit: 100 } })).map((r) => r.errorID);
      expect(ownB).toContain(theirs);
      expect(ownB).not.toContain(mine);
      for (const token of [w.attendee, w.attendeeSystem, w.externalA, w.eventAdminSystem])
        expect(await c.ok('error.find', { token })).toEqual([]);
      expect((await c.call('error.find', {})).status).toBe(401);
    });
  });
});

describe.each(STORES)('the rate of error reports on %s', (kind) => {
  const LIMIT = 5;
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform(kind, { ERROR_REPORTS_PER_HOUR: String(LIMIT) });
  });
  afterAll(() => p?.close());

  it(`one address may send ${LIMIT} reports an hour; the next is 429 with Retry-After; sandbox calls spend nothing`, async () => {
    const c = client(p, 'rest');
    for (let i = 0; i < 3; i++)
      expect((await c.call('error.create', { query: { sandbox: 1 }, body: { platform: 'web', message: 'sandbox' } })).status).toBe(200); // prettier-ignore
    for (let i = 0; i < LIMIT; i++)
      expect((await c.call('error.create', { body: { platform: 'web', message: `r${i}` } })).status).toBe(200);
    const r = await c.call('error.create', { body: { platform: 'web', message: 'one too many' } });
    expect(r.text).toBe('429 too many error reports from this address, try again later');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await p.db.selectFrom('errorReport').select('errorID').execute()).toHaveLength(LIMIT);
  });
});
