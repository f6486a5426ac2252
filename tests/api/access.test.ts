import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentOperations, operations } from '../../src/platform/catalog/index.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import {
  PASSWORD,
  STORES,
  startTestPlatform,
  world,
  type CallOptions,
  type TestPlatform,
  type World,
} from '../helpers/platform.ts';

// Who may call what (spec §5, table.ts `Auth`, the operations' doc comments), as one table per
// target: rows are callers, columns are the operations called with valid parameters. Writes run
// with sandbox=1, so every cell sees the same world (checked at the end of each matrix).
//
//   401  no token, or a token that is not valid (on every operation, public ones included)
//   403  a caller related to the target (a person of the company, or of one of its events, or a
//        token of one of its events) whose level or scope is too low
//   404  a caller with no relation to the target: as if it did not exist

/** What a column targets: a company with one of its events and one of its people. */
interface Target {
  companyID: string;
  eventID: string;
  /** A non-admin person of the company (for company.person.operate / dismiss). */
  personID: string;
}

interface Column {
  readonly label: string;
  readonly op: string;
  readonly call: (t: Target) => CallOptions;
}

const ACCESS_CODE = 4321;
const SANDBOX = { sandbox: 1 } as const;

// Short labels so the tables below stay one line per caller.
const COLUMNS: readonly Column[] = [
  {
    label: 'signIn',
    op: 'person.signIn',
    call: () => ({ query: { username: 'attendee@podium.test', ...SANDBOX }, body: { password: PASSWORD } }),
  },
  { label: 'descr', op: 'api.describe', call: () => ({}) },
  { label: 'ping', op: 'api.ping', call: () => ({}) },
  { label: 'cCreat', op: 'company.create', call: () => ({ query: SANDBOX, body: { shortName: 'Matrix Co' } }) },
  {
    label: 'cEdit',
    op: 'company.edit',
    call: (t) => ({ query: { companyID: t.companyID, key: 'shortName', ...SANDBOX }, body: { value: 'Renamed' } }),
  },
  { label: 'cFind', op: 'company.find', call: () => ({ query: { selection: 'all' } }) },
  { label: 'cGet', op: 'company.get', call: (t) => ({ query: { companyID: t.companyID } }) },
  {
    label: 'pBind',
    op: 'company.person.bind',
    call: (t) => ({
      query: { companyID: t.companyID, ...SANDBOX },
      body: { name: 'New Person', email: 'new-person@podium.test' },
    }),
  },
  {
    label: 'pOper',
    op: 'company.person.operate',
    call: (t) => ({
      query: { companyID: t.companyID, personID: t.personID, key: 'level', ...SANDBOX },
      body: { value: 1 },
    }),
  },
  {
    label: 'pDism',
    op: 'company.person.dismiss',
    call: (t) => ({ query: { companyID: t.companyID, personID: t.personID, ...SANDBOX } }),
  },
  { label: 'pFind', op: 'company.person.find', call: (t) => ({ query: { companyID: t.companyID, selection: 'all' } }) },
  {
    label: 'tEdit',
    op: 'company.tool.edit',
    call: (t) => ({ query: { companyID: t.companyID, key: 'feedback', ...SANDBOX }, body: { value: 1 } }),
  },
  { label: 'tGet', op: 'company.tool.get', call: (t) => ({ query: { companyID: t.companyID } }) },
  { label: 'tAvail', op: 'company.tool.available', call: () => ({}) },
  {
    label: 'eBind',
    op: 'company.event.bind',
    call: (t) => ({ query: { companyID: t.companyID, ...SANDBOX }, body: { name: 'Matrix', nickname: 'matrix' } }),
  },
  { label: 'eFind', op: 'company.event.find', call: (t) => ({ query: { companyID: t.companyID, selection: 'all' } }) },
  { label: 'eGet', op: 'event.get', call: (t) => ({ query: { eventID: t.eventID } }) },
  {
    label: 'eEdit',
    op: 'event.edit',
    call: (t) => ({ query: { eventID: t.eventID, key: 'name', ...SANDBOX }, body: { value: 'Renamed' } }),
  },
  {
    label: 'eCode',
    op: 'event.checkAccessCode',
    // The right code: wrong ones count towards the throttle (20 per client per hour).
    call: (t) => ({ query: { eventID: t.eventID }, body: { accessCode: ACCESS_CODE } }),
  },
  { label: 'billC', op: 'billing.find', call: (t) => ({ query: { companyID: t.companyID } }) },
  { label: 'billE', op: 'billing.find', call: (t) => ({ query: { eventID: t.eventID } }) },
  // Balances are added by platform operators only (issue 15).
  {
    label: 'billCr',
    op: 'billing.create',
    call: (t) => ({ query: { companyID: t.companyID, ...SANDBOX }, body: { product: 'email', amount: '10' } }),
  },
  // The company's admins, who are told 409 here: no CRM is connected in this world (issue 17).
  { label: 'pSync', op: 'company.person.sync', call: (t) => ({ query: { companyID: t.companyID, ...SANDBOX } }) },
  { label: 'codeCh', op: 'event.accessCode.challenge', call: (t) => ({ query: { eventID: t.eventID } }) },
  { label: 'codeF', op: 'event.accessCode.find', call: (t) => ({ query: { eventID: t.eventID } }) },
  // The caller's own identity: any system-scope token; the two public ones answer the same to everyone.
  {
    label: 'pEdit',
    op: 'person.edit',
    call: () => ({ query: { key: 'name', ...SANDBOX }, body: { value: 'Renamed' } }),
  },
  { label: 'pRecov', op: 'person.recover', call: () => ({ query: SANDBOX, body: { email: 'attendee@podium.test' } }) },
  // An unknown code: 400 for everyone, which shows that no token rule stands in the way.
  {
    label: 'pConf',
    op: 'person.confirm',
    call: () => ({ query: SANDBOX, body: { code: 'x'.repeat(60), password: PASSWORD } }),
  },
  // A stream (Server-Sent Events): the matrix reads its status and lets go of the stream.
  { label: 'chSub', op: 'change.subscribe', call: () => ({}) },
  // The channels of a public event: anyone hears them; a stale token is told so.
  { label: 'push', op: 'push.subscribe', call: (t) => ({ query: { eventID: t.eventID } }) },
  // Event magic links (issue 18): public, the same answer for everyone, a stale token ignored; an unknown
  // code is 401 for everyone; signing out with sandbox=1 ends nothing (and is 200 without a token too).
  {
    label: 'pReqL',
    op: 'person.requestLink',
    call: (t) => ({ query: { eventID: t.eventID, ...SANDBOX }, body: { email: 'attendee@podium.test' } }),
  },
  {
    label: 'pSigL',
    op: 'person.signInLink',
    call: (t) => ({ query: { eventID: t.eventID, ...SANDBOX }, body: { code: 'x'.repeat(43) } }),
  },
  { label: 'pOut', op: 'person.signOut', call: () => ({ query: SANDBOX, method: 'POST' }) },
];

const CALLERS = [
  'anonymous',
  'invalidToken',
  'operator',
  'adminA',
  'externalA',
  'adminB',
  'attendee',
  'attendeeSystem',
  'eventAdminEventScope',
  'eventAdminSystem',
  'staff',
] as const;
type CallerName = (typeof CALLERS)[number];
type Matrix = Record<CallerName, string>;

// prettier-ignore
/** Company A, event A1 (the callers' own company and event, except adminB's). */
const MATRIX_A: Matrix = {
  //                    signIn descr ping cCreat cEdit cFind cGet pBind pOper pDism pFind tEdit tGet tAvail eBind eFind eGet eEdit eCode billC billE billCr pSync codeCh codeF pEdit pRecov pConf chSub push pReqL pSigL pOut
  anonymous:            '200   401   200   401   401   401   200   401   401   401   401   401   200   401   401   200   200   401   200   401   401   401   401   200   401   401   200   400   200   200   200   401   200',
  // A stale token is 401 everywhere but where a client holding one must get a new one (staleTokenIgnored).
  invalidToken:         '200   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   200   400   401   401   200   401   200',
  operator:             '200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   409   200   200   200   200   400   200   200   200   401   200',
  adminA:               '200   200   200   403   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   403   409   200   200   200   200   400   200   200   200   401   200',
  externalA:            '200   200   200   403   403   200   200   403   403   403   200   403   200   200   403   200   200   403   200   403   403   403   403   200   403   200   200   400   200   200   200   401   200',
  adminB:               '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   200   200   400   200   200   200   401   200',
  attendee:             '200   200   200   403   403   200   200   403   403   403   403   403   200   200   403   200   200   403   200   403   403   403   403   200   403   403   200   400   200   200   200   401   200',
  attendeeSystem:       '200   200   200   403   403   200   200   403   403   403   403   403   200   200   403   200   200   403   200   403   403   403   403   200   403   200   200   400   200   200   200   401   200',
  eventAdminEventScope: '200   200   200   403   403   200   200   403   403   403   403   403   200   200   403   200   200   403   200   403   403   403   403   200   403   403   200   400   200   200   200   401   200',
  eventAdminSystem:     '200   200   200   403   403   200   200   403   403   403   403   403   200   200   403   200   200   200   200   403   200   403   403   200   200   200   200   400   200   200   200   401   200',
  staff:                '200   200   200   403   403   200   200   403   403   403   403   403   200   200   403   200   200   403   200   403   403   403   403   200   403   403   200   400   200   200   200   401   200',
};

// prettier-ignore
/** Company B, event B1: only the operator and adminB have any rights; for the rest B does not exist. */
const MATRIX_B: Matrix = {
  //                    signIn descr ping cCreat cEdit cFind cGet pBind pOper pDism pFind tEdit tGet tAvail eBind eFind eGet eEdit eCode billC billE billCr pSync codeCh codeF pEdit pRecov pConf chSub push pReqL pSigL pOut
  anonymous:            '200   401   200   401   401   401   200   401   401   401   401   401   200   401   401   200   200   401   200   401   401   401   401   200   401   401   200   400   200   200   200   401   200',
  invalidToken:         '200   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   401   200   400   401   401   200   401   200',
  operator:             '200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   409   200   200   200   200   400   200   200   200   401   200',
  adminA:               '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   200   200   400   200   200   200   401   200',
  externalA:            '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   200   200   400   200   200   200   401   200',
  adminB:               '200   200   200   403   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   200   403   409   200   200   200   200   400   200   200   200   401   200',
  attendee:             '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   403   200   400   200   200   200   401   200',
  attendeeSystem:       '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   200   200   400   200   200   200   401   200',
  eventAdminEventScope: '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   403   200   400   200   200   200   401   200',
  eventAdminSystem:     '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   200   200   400   200   200   200   401   200',
  staff:                '200   200   200   403   404   200   200   404   404   404   404   404   200   200   404   200   200   404   200   404   404   403   404   200   404   403   200   400   200   200   200   401   200',
};

/** One matrix line as { column label: status }. */
function expectedRow(line: string): Record<string, number> {
  const cells = line.trim().split(/\s+/).map(Number);
  expect(cells).toHaveLength(COLUMNS.length);
  return Object.fromEntries(COLUMNS.map((c, i) => [c.label, cells[i]]));
}

/** Everything the matrix could change, except tokens (signIn runs with sandbox=1 too, but the check is on data). */
async function snapshot(p: TestPlatform): Promise<string> {
  const tables = ['person', 'company', 'companyPerson', 'companyTool', 'event', 'eventPerson', 'tag', 'eventTag'];
  const out: Record<string, unknown> = {};
  for (const t of tables)
    out[t] = await p.db
      .selectFrom(t as 'person')
      .selectAll()
      .execute();
  out.tokens = (await p.db.selectFrom('token').select('tokenHash').execute()).length;
  return JSON.stringify(out);
}

describe.each(STORES)('access matrix on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let tokens: Record<CallerName, string | undefined>;
  let targetA: Target;
  let targetB: Target;

  beforeAll(async () => {
    // Every caller tries an unknown link code in each style on each event: more than the wrong codes one
    // client may send (person.signInLink), which is not what this matrix is about.
    p = await startTestPlatform(kind, { MAGIC_LINK_WRONG_PER_CLIENT: '1000' });
    w = await world(p);
    const { operator } = w;
    // A second, non-admin person in B, so operate/dismiss have someone to act on there too.
    await p.ok('company.person.bind', {
      token: operator,
      query: { companyID: w.companyB.companyID },
      body: { name: 'External B', email: 'external-b@podium.test', level: 0 },
    });
    const personOf = async (companyID: string, email: string) =>
      (await p.ok('company.person.find', { token: operator, query: { companyID, selection: 'all' } })).find(
        (r) => r.email === email,
      )!.personID;
    targetA = {
      companyID: w.companyA.companyID,
      eventID: w.eventA.eventID,
      personID: await personOf(w.companyA.companyID, 'external-a@podium.test'),
    };
    targetB = {
      companyID: w.companyB.companyID,
      eventID: w.eventB.eventID,
      personID: await personOf(w.companyB.companyID, 'external-b@podium.test'),
    };
    for (const eventID of [targetA.eventID, targetB.eventID])
      await p.ok('event.edit', {
        token: operator,
        query: { eventID, key: 'accessCode' },
        body: { value: ACCESS_CODE },
      });
    tokens = {
      anonymous: undefined,
      // Shaped like a real one (60 characters), but never issued.
      invalidToken: 'x'.repeat(60),
      operator,
      adminA: w.adminA,
      externalA: w.externalA,
      adminB: w.adminB,
      attendee: w.attendee,
      attendeeSystem: w.attendeeSystem,
      eventAdminEventScope: w.eventAdminEventScope,
      eventAdminSystem: w.eventAdminSystem,
      staff: w.staff,
    };
  });
  afterAll(() => p?.close());

  // The content operations (issue 3) have their auth rules swept from the table in auth.test.ts.
  it('has a column for every platform-core operation in the table', () => {
    const content = new Set(contentOperations.map((o) => o.name));
    const core = operations.filter((o) => !content.has(o.name)).map((o) => o.name);
    expect(new Set(COLUMNS.map((c) => c.op))).toEqual(new Set(core));
  });

  describe.each([
    ['company A / event A1', MATRIX_A, () => targetA],
    ['company B / event B1', MATRIX_B, () => targetB],
  ] as const)('on %s', (_name, matrix, target) => {
    let before: string;
    beforeAll(async () => {
      before = await snapshot(p);
    });

    it.each(CALLERS)('%s', async (caller) => {
      const want = expectedRow(matrix[caller]);
      for (const style of ['rpc', 'rest'] as const) {
        const got: Record<string, number> = {};
        for (const col of COLUMNS) {
          got[col.label] = (await p.call(col.op, { ...col.call(target()), token: tokens[caller], style })).status;
        }
        expect({ style, ...got }).toEqual({ style, ...want });
      }
    });

    it('left the world as it was (every write ran with sandbox=1)', async () => {
      expect(await snapshot(p)).toBe(before);
    });
  });

  it('an event-scope token of A1 sees nothing of B1 beyond its public page', async () => {
    for (const token of [w.attendee, w.eventAdminEventScope, w.staff]) {
      const anon = await p.ok('event.get', { query: { eventID: w.eventB.eventID } });
      const mine = await p.ok('event.get', { token, query: { eventID: w.eventB.eventID } });
      expect(Object.keys(mine[0]).filter((k) => !(k in anon[0]))).toEqual([]);
      expect(mine[0].level).toBe('0');
      expect(mine[0].approved).toBe('-1');
      expect(mine[0]).not.toHaveProperty('accessCode');
      // Its company's event list is limited to the token's own event (spec §5.3).
      const listB = await p.ok('company.event.find', {
        token,
        query: { companyID: w.companyB.companyID, selection: 'all' },
      });
      expect(listB).toEqual([]);
    }
  });

  it('a company admin of A sees only the public form of B', async () => {
    const get = await p.ok('company.get', { token: w.adminA, query: { companyID: w.companyB.companyID } });
    expect(get[0]).not.toHaveProperty('androidReview');
    const own = await p.ok('company.get', { token: w.adminA, query: { companyID: w.companyA.companyID } });
    expect(own[0]).toHaveProperty('androidReview');
    const found = await p.ok('company.find', { token: w.adminA, query: { selection: 'all' } });
    expect(found.map((c) => c.companyID)).toEqual([w.companyA.companyID]);
    const event = await p.ok('event.get', { token: w.adminA, query: { eventID: w.eventB.eventID } });
    expect(event[0]).not.toHaveProperty('accessCode');
  });

  it('an event-scope token of a company admin has no company rights (Admin downgraded, spec §5.3)', async () => {
    const personID = Number(
      (
        await p.db
          .selectFrom('person')
          .select('personID')
          .where('username', '=', 'admin-a@podium.test')
          .executeTakeFirstOrThrow()
      ).personID,
    );
    await p.db
      .insertInto('eventPerson')
      .values({
        eventID: Number(w.eventA.eventID),
        personID,
        level: 4,
        passwordHash: await hashPassword(`${PASSWORD} event`),
      })
      .execute();
    const token = await p.signIn('admin-a@podium.test', `${PASSWORD} event`, Number(w.eventA.eventID));
    const companyID = w.companyA.companyID;
    const eventID = w.eventA.eventID;
    expect(await p.ok('company.find', { token, query: { selection: 'all' } })).toEqual([]);
    expect((await p.ok('company.get', { token, query: { companyID } }))[0]).not.toHaveProperty('androidReview');
    expect((await p.ok('event.get', { token, query: { eventID } }))[0]).not.toHaveProperty('accessCode');
    const refused: [string, CallOptions][] = [
      ['company.person.find', { query: { companyID, selection: 'all' } }],
      ['company.edit', { query: { companyID, key: 'shortName', ...SANDBOX }, body: { value: 'x' } }],
      ['company.event.bind', { query: { companyID, ...SANDBOX }, body: { name: 'X', nickname: 'x' } }],
      ['event.edit', { query: { eventID, key: 'name', ...SANDBOX }, body: { value: 'x' } }],
      ['billing.find', { query: { companyID } }],
      ['billing.find', { query: { eventID } }],
    ];
    for (const [op, o] of refused) expect([op, (await p.call(op, { ...o, token })).status]).toEqual([op, 403]);
    // The same person's system token keeps full rights.
    expect(
      (
        await p.call('event.edit', {
          token: w.adminA,
          query: { eventID, key: 'name', ...SANDBOX },
          body: { value: 'x' },
        })
      ).status,
    ).toBe(200);
  });

  it('sandbox=1 answers as if the write happened and then rolls every write back', async () => {
    const { operator } = w;
    const companyID = w.companyA.companyID;
    const eventID = w.eventA.eventID;
    const before = await snapshot(p);

    const created = await p.ok('company.create', { token: operator, query: SANDBOX, body: { shortName: 'Ghost Co' } });
    expect(created[0].shortName).toBe('Ghost Co');
    const edited = await p.ok('company.edit', {
      token: operator,
      query: { companyID, key: 'shortName', ...SANDBOX },
      body: { value: 'Ghost name' },
    });
    expect(edited[0].shortName).toBe('Ghost name');
    const bound = await p.ok('company.person.bind', {
      token: operator,
      query: { companyID, ...SANDBOX },
      body: { name: 'Ghost', email: 'ghost@podium.test', password: PASSWORD },
    });
    expect(bound[0].email).toBe('ghost@podium.test');
    const operated = await p.ok('company.person.operate', {
      token: operator,
      query: { companyID, personID: targetA.personID, key: 'level', ...SANDBOX },
      body: { value: 1 },
    });
    expect(operated[0].level).toBe('4');
    await p.ok('company.person.dismiss', {
      token: operator,
      query: { companyID, personID: targetA.personID, ...SANDBOX },
    });
    const tool = await p.ok('company.tool.edit', {
      token: operator,
      query: { companyID, key: 'quiz', ...SANDBOX },
      body: { value: 1 },
    });
    expect(tool[0].quiz).toBe('1');
    const event = await p.ok('company.event.bind', {
      token: operator,
      query: { companyID, ...SANDBOX },
      body: { name: 'Ghost event', nickname: 'ghost' },
    });
    expect(event[0].nickname).toBe('ghost');
    const renamed = await p.ok('event.edit', {
      token: operator,
      query: { eventID, key: 'name', ...SANDBOX },
      body: { value: 'Ghost A1' },
    });
    expect(renamed[0].name).toBe('Ghost A1');
    const signedIn = await p.ok('person.signIn', {
      query: { username: 'admin-a@podium.test', ...SANDBOX },
      body: { password: PASSWORD },
    });

    expect(await snapshot(p)).toBe(before);
    // And through the API: nothing of the above is visible, and the sandbox token was never issued.
    expect((await p.ok('company.get', { query: { companyID } }))[0].shortName).toBe('Alpha Events');
    expect((await p.ok('event.get', { token: operator, query: { eventID } }))[0].name).toBe('A One');
    expect((await p.ok('company.tool.get', { query: { companyID } }))[0].quiz).toBe('0');
    const people = await p.ok('company.person.find', { token: operator, query: { companyID, selection: 'all' } });
    expect(people.find((r) => r.personID === targetA.personID)?.level).toBe('1');
    expect(people.map((r) => r.email)).not.toContain('ghost@podium.test');
    expect((await p.call('api.describe', { token: signedIn[0].tokenID })).status).toBe(401);
    // The same writes without sandbox go through (nothing left behind blocks them).
    await p.ok('company.event.bind', {
      token: operator,
      query: { companyID },
      body: { name: 'Ghost event', nickname: 'ghost' },
    });
    await p.ok('company.person.bind', {
      token: operator,
      query: { companyID },
      body: { name: 'Ghost', email: 'ghost@podium.test' },
    });
  });
});
