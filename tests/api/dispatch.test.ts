import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import {
  PASSWORD,
  operatorWithCompany,
  REDIS_URL,
  STORES,
  startTestPlatform,
  TEST_BOUNCE_SECRET,
  type TestPlatform,
} from '../helpers/platform.ts';

// The dispatcher's own promises: both styles, the error lines, sandbox, excel, pagination, tokens.

describe.each(STORES)('dispatcher on %s', (kind) => {
  let p: TestPlatform;
  let operator: string;
  let companyID: string;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    ({ operator, companyID } = await operatorWithCompany(p, 'Dispatch Co'));
    for (let i = 1; i <= 25; i++) {
      await p.ok('company.event.bind', {
        token: operator,
        query: { companyID },
        body: { name: `E${i}`, nickname: `e${i}` },
      });
    }
  });
  afterAll(() => p?.close());

  const raw = (path: string, init?: RequestInit) => fetch(`${p.url}${path}`, init);

  it.each([
    ['company.get', { companyID: '1' }],
    ['company.tool.get', { companyID: '1' }],
    ['event.get', { eventID: '1' }],
    ['event.get', { eventID: '999' }],
    ['nope.nothing', {}],
  ])('%s answers byte-identically in both styles (%j)', async (name, query) => {
    const rpc = await raw(`/?action=${name}&${new URLSearchParams(query)}`);
    const rest = await raw(`/${name.replaceAll('.', '/')}?${new URLSearchParams(query)}`);
    expect(rest.status).toBe(rpc.status);
    expect(rest.headers.get('content-type')).toBe(rpc.headers.get('content-type'));
    expect(Buffer.from(await rest.arrayBuffer()).equals(Buffer.from(await rpc.arrayBuffer()))).toBe(true);
  });

  it.each([
    ['GET', '/?action=does.not.exist', undefined, undefined, 404, /^404 operation does\.not\.exist does not exist$/],
    ['GET', '/', undefined, undefined, 400, /^400 action cannot be empty$/],
    ['GET', '/person/signIn?username=x', undefined, undefined, 405, /^405 person\.signIn accepts POST$/],
    ['POST', '/company/person/dismiss?companyID=1&personID=1', '', 'application/x-www-form-urlencoded', 405, /^405 /],
    ['POST', '/person/signIn?username=x', '{"password":"x"}', 'application/json', 415, /^415 /],
    ['POST', '/person/signIn?username=x', 'password=x', 'text/plain', 415, /^415 /],
    [
      'POST',
      '/person/signIn?username=x',
      `password=${'x'.repeat(1_100_000)}`,
      'application/x-www-form-urlencoded',
      413,
      /^413 /,
    ],
    [
      'POST',
      '/person/signIn?username=x',
      'passwrd=x',
      'application/x-www-form-urlencoded',
      400,
      /^400 passwrd is not a parameter of person\.signIn: did you mean password\?$/,
    ],
    [
      'POST',
      '/person/signIn?username=x',
      'nothing=here',
      'application/x-www-form-urlencoded',
      400,
      /^400 nothing is not a parameter of person\.signIn, which takes username, eventID, password$/,
    ],
    // A name an operation does not take, in the query, in either style: the closest name, or the list.
    ['GET', '/event/get?namespace=a&nicknme=b', undefined, undefined, 400, /^400 nicknme is not a parameter of event\.get: did you mean nickname\?$/], // prettier-ignore
    ['GET', '/?action=event.get&eventId=1', undefined, undefined, 400, /^400 eventId is not a parameter of event\.get: did you mean eventID\?$/], // prettier-ignore
    ['GET', '/api/ping?tokenId=x', undefined, undefined, 400, /^400 tokenId is not a parameter of api\.ping: did you mean tokenID\?$/], // prettier-ignore
    ['GET', '/api/ping?x=1', undefined, undefined, 400, /^400 x is not a parameter of api\.ping, which takes none$/],
    [
      'POST',
      '/person/signIn?username=x',
      '',
      'application/x-www-form-urlencoded',
      400,
      /^400 password cannot be empty$/,
    ],
    [
      'POST',
      '/person/signIn?username=x&password=inquery',
      '',
      'application/x-www-form-urlencoded',
      400,
      /^400 password belongs in the request body$/,
    ],
    ['GET', '/event/get?eventID=abc', undefined, undefined, 400, /^400 eventID must be a positive integer$/],
    ['GET', '/event/get?eventID=1&eventID=2', undefined, undefined, 400, /^400 eventID must be given once$/],
    ['GET', '/?action=event.get&eventID=1&action=company.get', undefined, undefined, 400, /^400 action must be given once$/], // prettier-ignore
    ['GET', '/event/get?eventID=1&format=pdf', undefined, undefined, 400, /^400 format must be/],
    [
      'GET',
      '/event/get?eventID=1&format=excel-daemon',
      undefined,
      undefined,
      400,
      /^400 format excel-daemon is for the lists \(\.find operations that page\), not event\.get$/,
    ],
    ['GET', '/api/describe', undefined, undefined, 401, /^401 tokenID cannot be empty$/],
    ['GET', '/api/describe?tokenID=nope', undefined, undefined, 401, /^401 tokenID is not valid/],
  ])('%s %s → %s', async (method, path, body, type, status, line) => {
    const res = await raw(path, { method, body, headers: type ? { 'content-type': type } : {} });
    const text = await res.text();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toMatch(line);
    if (status === 405) expect(res.headers.get('allow')).toMatch(/GET|POST/);
  });

  it('sends Referrer-Policy: no-referrer and no-store on every answer', async () => {
    for (const path of ['/event/get?eventID=1', '/nope', '/openapi.json']) {
      const res = await raw(path);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('reads the token from tokenID or Authorization: Bearer', async () => {
    const viaQuery = await p.call('api.describe', { token: operator });
    const viaHeader = await p.call('api.describe', { bearer: operator });
    expect(viaQuery.status).toBe(200);
    expect(viaHeader.text).toBe(viaQuery.text);
    expect((await p.call('api.describe', { bearer: 'x'.repeat(60) })).status).toBe(401);
  });

  // A token without its scheme is refused rather than answered as anonymous (public data, or
  // "tokenID cannot be empty"); another scheme, such as a proxy's Basic, is not the API's to judge.
  it.each([
    ['a bare token', () => operator, 401],
    ['Bearer without a token', () => 'Bearer', 401],
    ['Bearer and spaces', () => 'Bearer   ', 401],
    ['a proxy’s Basic', () => 'Basic dXNlcjpwYXNz', 200],
  ])('answers Authorization with %s: %s', async (_, value, status) => {
    const r = await p.call('api.ping', { headers: { authorization: value() } });
    expect(r.status).toBe(status);
    if (status === 401) expect(r.text).toBe('401 Authorization must be "Bearer <token>"');
  });

  // A selection left out or misspelt names the values, as an unknown edit key names the keys.
  const COMPANY = 'all, live, androidQueue, iosQueue, lacksIcon, lacksBundle, missingLinks, notWhiteLabel';
  it.each([
    ['company.find', {}, `400 selection cannot be empty (values: ${COMPANY})`],
    ['company.find', { selection: 'bogus' }, `400 selection has an unknown value "bogus" (values: ${COMPANY})`],
    [
      'company.event.find',
      { companyID: '1' },
      /^400 selection cannot be empty \(values: my-events-created, .*, all, .*, tags:<id>,<id>\)$/,
    ],
    [
      'company.event.find',
      { selection: `tags:${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}` },
      '400 selection tags: must list at most 100 ids',
    ],
  ])('%s with %j answers the selection values', async (name, query, line) => {
    const r = await p.call(name, {
      token: operator,
      query: name === 'company.event.find' ? { ...query, companyID } : query,
    });
    if (typeof line === 'string') expect(r.text).toBe(line);
    else expect(r.text).toMatch(line);
  });

  it('paginates with limit (default 20, at most 100), offset, and total on paginated=1', async () => {
    const q = { companyID, selection: 'all', order: 'eventID' };
    const first = await p.call('company.event.find', { token: operator, query: q });
    expect(first.count).toBe(20);
    expect(first.total).toBeUndefined();
    const second = await p.call('company.event.find', { token: operator, query: { ...q, offset: 20, paginated: 1 } });
    expect(second.count).toBe(5);
    expect(second.total).toBe('25');
    expect(second.data[0].name).toBe('E21');
    expect((await p.call('company.event.find', { token: operator, query: { ...q, limit: 101 } })).text).toBe(
      '400 limit must be at most 100',
    );
    expect((await p.call('company.event.find', { token: operator, query: { ...q, limit: 100 } })).count).toBe(25);
    // Not a number at all: said in words, as every other parameter is (not the validator's "NaN").
    for (const [name, value] of [
      ['limit', 'abc'],
      ['offset', 'x'],
    ]) {
      const r = await p.call('company.event.find', { token: operator, query: { ...q, [name]: value } });
      expect(r.text).toBe(`400 ${name} must be a whole number`);
    }
    expect((await p.call('change.subscribe', { query: { lastEventID: 'soon' } })).text).toBe(
      '400 lastEventID must be a whole number',
    );
  });

  it('sandbox=1 shows the result but stores nothing', async () => {
    const sandboxed = await p.ok('company.event.bind', {
      token: operator,
      query: { companyID, sandbox: 1 },
      body: { name: 'Ghost', nickname: 'ghost' },
    });
    expect(sandboxed[0].name).toBe('Ghost');
    const found = await p.ok('company.event.find', {
      token: operator,
      query: { companyID, selection: 'all', name: 'Ghost' },
    });
    expect(found).toEqual([]);
    // and the nickname is still free
    await p.ok('company.event.bind', {
      token: operator,
      query: { companyID },
      body: { name: 'Real', nickname: 'ghost' },
    });
  });

  it('format=excel answers an .xlsx of the data rows with formulas neutralized', async () => {
    await p.ok('company.event.bind', {
      token: operator,
      query: { companyID },
      body: { name: '=HYPERLINK("x")', nickname: 'formula' },
    });
    const res = await raw(
      `/company/event/find?tokenID=${operator}&companyID=${companyID}&selection=all&limit=100&format=excel`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']);
    expect(sheet).toContain('E25');
    expect(sheet).toContain('&apos;=HYPERLINK(&quot;x&quot;)');
    expect(sheet).toContain('>-1</t>'); // a plain number is left as it is
    expect(sheet).not.toMatch(/<t[^>]*>=HYPERLINK/);
  });

  it('answers a public read from the cache until a write changes it', async () => {
    const eventID = (await p.ok('company.event.find', { token: operator, query: { companyID, selection: 'all' } }))[0]
      .eventID;
    await p.ok('event.edit', { token: operator, query: { eventID, key: 'visible' }, body: { value: 1 } });
    const before = await p.ok('event.get', { query: { eventID } });
    await p.ok('event.edit', { token: operator, query: { eventID, key: 'name' }, body: { value: 'Renamed' } });
    const after = await p.ok('event.get', { query: { eventID } });
    expect(before[0].name).not.toBe('Renamed');
    expect(after[0].name).toBe('Renamed');
  });

  it('masks tokens and check-in codes in every log line', async () => {
    await p.call('api.describe', { token: operator });
    await p.call('api.describe', { bearer: operator });
    await p.call('checklog.checkIn', { query: { code: 'TICKET-SECRET-1234' } });
    // A name the query parser decodes is masked as it reads it; BOUNCE_SECRET too.
    await fetch(`${p.url}/?action=api.describe&token%49D=${operator}`);
    await fetch(`${p.url}/event/email/bounce?secret=${TEST_BOUNCE_SECRET}`, { method: 'POST' });
    const logs = p.logs.join('');
    expect(logs).not.toContain(TEST_BOUNCE_SECRET);
    expect(logs).toContain('tokenID=***');
    expect(logs).not.toContain('TICKET-SECRET-1234');
    expect(logs).not.toContain(operator);
    expect(logs).not.toContain(PASSWORD);
  });

  it('answers 500 with a generic line and logs the details', async () => {
    // Break the store under the platform: the client must see neither SQL nor a stack.
    const table = kind === 'sqlite' ? 'companyTool' : '"companyTool"';
    const { sql } = await import('kysely');
    await sql.raw(`alter table ${table} rename to broken_tool`).execute(p.db);
    try {
      const res = await raw(`/company/tool/get?companyID=${companyID}`);
      expect(res.status).toBe(500);
      expect(await res.text()).toBe('500 internal error');
      expect(p.logs.join('')).toMatch(/companyTool|no such table|does not exist/);
    } finally {
      await sql.raw(`alter table broken_tool rename to ${table}`).execute(p.db);
    }
  });
});

describe.each([
  ['memory', {}],
  ['redis', { REDIS_URL }],
])('rate limits with the %s counter', (_name, env) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform('sqlite', { RATE_LIMIT_CLIENT: '100', RATE_LIMIT_TOKEN: '10', ...env });
  });
  afterAll(() => p?.close());

  it('limits one token to 10 calls a second with 429 and Retry-After', async () => {
    await p.person('limited@podium.test', PASSWORD, true);
    const token = await p.signIn('limited@podium.test', PASSWORD);
    const replies = await Promise.all(Array.from({ length: 15 }, () => p.call('company.tool.available', { token })));
    const limited = replies.filter((r) => r.status === 429);
    expect(replies.filter((r) => r.status === 200).length).toBeLessThanOrEqual(10);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(limited[0].text).toMatch(/^429 too many calls for this token/);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('limits one client address to 100 calls a second', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const replies = await Promise.all(
      Array.from({ length: 130 }, () => p.call('company.tool.get', { query: { companyID: 1 } })),
    );
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(29);
    expect(limited[0].text).toMatch(/^429 too many calls from this address/);
  });
});
