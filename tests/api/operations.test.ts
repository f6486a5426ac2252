// Operations over real HTTP, in both call styles and on both stores: sign-in, discovery and billing.
// Companies: operations-company.test.ts. Events: operations-event.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/platform/catalog/index.ts';
import { authText } from '../../src/platform/kernel/describe.ts';
import type { Param } from '../../src/platform/kernel/table.ts';
import { ANSWERS } from '../../src/platform/kernel/answers.ts';
import {
  activityWire,
  attendeeWire,
  companyWire,
  eventWire,
  formWire,
  pingWire,
  speakerWire,
  toolsWire,
} from '../../src/shared/wire/index.ts';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, nowSeconds, type Client } from '../helpers/operations.ts';

/** Suites that mention every operation generically, so they cannot be an operation's home. */
const GENERIC = new Set(['fuzz.test.ts', 'access.test.ts', 'auth.test.ts', 'operations.test.ts']);
const HOME = join(dirname(fileURLToPath(import.meta.url)));
/** Where each operation is covered: a suite that names it in quotes. A new operation fails here until it gets tests. */
const COVERED: Record<string, string> = {
  'person.signIn': 'operations.test.ts',
  'api.describe': 'operations.test.ts',
  'api.ping': 'operations.test.ts',
  'billing.find': 'operations.test.ts',
  'event.accessCode.challenge': '../security/access-gate.test.ts',
  'event.accessCode.find': '../security/access-gate.test.ts',
  'person.edit': '../security/identity.test.ts',
  'person.recover': '../security/identity.test.ts',
  'person.confirm': '../security/identity.test.ts',
  // Its scans are a table of `checklog.${direction}` calls.
  'checklog.checkOut': 'checkin.test.ts',
};

const EVENT_PASSWORD = `${PASSWORD} event`;
/** The access token record of spec §2.1. */
const TOKEN_RECORD_FIELDS = [
  'personID', 'firstName', 'lastName', 'name', 'username', 'email', 'image', 'timezone', 'telephone',
  'socialAID', 'socialBID', 'socialCID', 'date', 'tokenID', 'scope', 'targetID',
]; // prettier-ignore

it('every operation of the table has a home in the operation suites', () => {
  const suites = readdirSync(HOME)
    .filter((f) => f.endsWith('.test.ts') && !GENERIC.has(f))
    .map((f) => readFileSync(join(HOME, f), 'utf8'));
  const homeless = operations
    .map((op) => op.name)
    .filter((name) => !COVERED[name] && !suites.some((text) => text.includes(`'${name}'`)));
  expect(homeless).toEqual([]);
});

describe.each(STORES)('operations on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
    });
    afterAll(() => p?.close());

    describe('person.signIn', () => {
      const signIn = (username: string, password: string, eventID?: string) =>
        c.call('person.signIn', { query: { username, ...(eventID ? { eventID } : {}) }, body: { password } });

      it('gives a system token record (spec §2.1) with a 60-character token that works', async () => {
        const before = nowSeconds();
        const r = await signIn('Attendee@Podium.test', PASSWORD); // usernames are case-insensitive
        expect(r.status).toBe(200);
        const [row] = r.data as Record<string, string>[];
        expect(Object.keys(row).sort()).toEqual([...TOKEN_RECORD_FIELDS].sort());
        expect(row).toMatchObject({
          personID: String(w.attendeeID),
          username: 'attendee@podium.test',
          email: 'attendee@podium.test',
          name: 'attendee',
          scope: 'system',
          targetID: '0',
        });
        expect(row.tokenID).toMatch(/^[A-Za-z0-9_-]{60}$/);
        expect(Number(row.date)).toBeGreaterThanOrEqual(before);
        expect(Number(row.date)).toBeLessThanOrEqual(nowSeconds());
        // A system token reaches the token-only operations.
        expect(await c.ok('company.tool.available', { token: row.tokenID })).not.toHaveLength(0);
      });

      it('gives an event token with eventID and the event password', async () => {
        const r = await signIn('attendee@podium.test', EVENT_PASSWORD, w.eventA.eventID);
        const [row] = r.data as Record<string, string>[];
        expect(row).toMatchObject({ scope: 'event', targetID: w.eventA.eventID, personID: String(w.attendeeID) });
        expect(row.tokenID).toHaveLength(60);
        const [event] = await c.ok('event.get', { token: row.tokenID, query: { eventID: w.eventA.eventID } });
        expect(event).toMatchObject({ personID: String(w.attendeeID), approved: '1', level: '1' });
        // Event scope is limited to its event: company operations need a system token.
        await c.fail(
          'company.person.find',
          { token: row.tokenID, query: { companyID: w.companyA.companyID, selection: 'all' } },
          403,
        );
      });

      it('downgrades an event admin signed in with event scope (spec §5.3)', async () => {
        const [event] = await c.ok('event.get', {
          token: w.eventAdminEventScope,
          query: { eventID: w.eventA.eventID },
        });
        expect(event.level).toBe('1');
        const [system] = await c.ok('event.get', { token: w.eventAdminSystem, query: { eventID: w.eventA.eventID } });
        expect(system.level).toBe('4');
      });

      it('gives a system token with eventID but the system password (spec §5.4)', async () => {
        const [row] = (await signIn('attendee@podium.test', PASSWORD, w.eventA.eventID)).data as Record<
          string,
          string
        >[];
        expect(row).toMatchObject({ scope: 'system', targetID: '0' });
        expect(await c.ok('company.tool.available', { token: row.tokenID })).not.toHaveLength(0);
      });

      it.each([
        ['wrong password', 'staff@podium.test', 'not the password', undefined],
        ['wrong password with eventID', 'staff@podium.test', 'not the password', 'A'],
        ['event password without eventID', 'staff@podium.test', EVENT_PASSWORD, undefined],
        ['event password for an event the person is not in', 'staff@podium.test', EVENT_PASSWORD, 'B'],
        ['unknown username', 'nobody@podium.test', PASSWORD, undefined],
      ])('refuses a %s with 401', async (_, username, password, event) => {
        const eventID = event === 'A' ? w.eventA.eventID : event === 'B' ? w.eventB.eventID : undefined;
        const r = await signIn(username, password, eventID);
        expect(r.status).toBe(401);
        expect(r.text).toBe('401 wrong username or password');
      });

      // prettier-ignore
      it.each([
        ['without username', { body: { password: PASSWORD } }, 400],
        ['without password', { query: { username: 'staff@podium.test' }, body: {} }, 400],
        ['with a bad eventID', { query: { username: 'staff@podium.test', eventID: 'x' }, body: { password: PASSWORD } }, 400],
        ['with GET', { method: 'GET' as const, query: { username: 'staff@podium.test' } }, 405],
      ])('refuses a call %s', async (_, o, status) => {
        await c.fail('person.signIn', o, status);
      });

      it('throttles wrong passwords per username: the 11th try is 429 even with the right password', async () => {
        await p.person('guessed@podium.test', PASSWORD);
        for (let i = 0; i < 10; i++) expect((await signIn('guessed@podium.test', `wrong ${i}`)).status).toBe(401);
        const r = await c.fail(
          'person.signIn',
          { query: { username: 'guessed@podium.test' }, body: { password: PASSWORD } },
          429,
        );
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        // Another username from the same client is not affected.
        expect((await signIn('staff@podium.test', PASSWORD)).status).toBe(200);
      });

      it('stores no token in sandbox mode', async () => {
        const [row] = await c.ok('person.signIn', {
          query: { username: 'staff@podium.test', sandbox: 1 },
          body: { password: PASSWORD },
        });
        expect(row.tokenID).toHaveLength(60);
        await c.fail('company.tool.available', { token: row.tokenID }, 401);
      });

      it('accepts the token as Authorization: Bearer like tokenID', async () => {
        const viaQuery = await c.ok('event.get', { token: w.attendee, query: { eventID: w.eventA.eventID } });
        const viaBearer = await c.ok('event.get', { bearer: w.attendee, query: { eventID: w.eventA.eventID } });
        expect(viaBearer).toEqual(viaQuery);
        expect(viaBearer[0].approved).toBe('1');
        expect(await c.ok('api.describe', { bearer: w.operator })).toHaveLength(operations.length);
        await c.fail('api.describe', { bearer: 'x'.repeat(60) }, 401);
        await c.fail('api.describe', {}, 401, /tokenID cannot be empty/);
      });
    });

    describe('api.describe', () => {
      it('lists every operation with methods, parameters, auth and origin', async () => {
        const rows = (await c.call('api.describe', { token: w.attendee })).data as Record<string, unknown>[];
        expect(rows.map((r) => r.name)).toEqual(operations.map((op) => op.name));
        for (const op of operations) {
          const row = rows.find((r) => r.name === op.name)!;
          expect(row.methods, op.name).toBe(op.methods.join(','));
          expect(row.auth, op.name).toBe(authText(op.auth));
          expect(row.origin, op.name).toBe(op.extension ? 'extension' : 'spec');
          expect(row.writes, op.name).toBe(op.writes ? '1' : '0');
          expect(row.cors, op.name).toBe(op.cors ? '1' : '0');
          expect(row.summary, op.name).toBe(op.summary);
          const params = row.parameters as Record<string, string>[];
          expect(params.map((x) => x.name)).toEqual(['tokenID', ...Object.keys(op.params)]);
          expect(params[0].required).toBe(op.auth.kind === 'public' ? '0' : '1');
          for (const [name, param] of Object.entries(op.params as Record<string, Param>)) {
            const d = params.find((x) => x.name === name)!;
            const inVariant = (op.variants ?? []).some((v: readonly string[]) => v.includes(name));
            expect(d.place, `${op.name} ${name}`).toBe(param.place);
            // An edit's value must be sent even where it may be empty (issue 10 defect 1).
            const edit = name === 'value' && (op.params as Record<string, Param>).key?.place === 'query';
            expect(d.required, `${op.name} ${name}`).toBe(!edit && (param.optional || inVariant) ? '0' : '1');
            expect(d.description).toBe(param.description);
          }
          expect(row.variants).toEqual((op.variants ?? []).map((v: readonly string[]) => ({ required: v.join(',') })));
        }
      });

      it('describes concrete shapes', async () => {
        const rows = await c.ok('api.describe', { token: w.operator });
        const signIn = rows.find((r) => r.name === 'person.signIn') as unknown as Record<string, unknown>;
        expect(signIn).toMatchObject({ methods: 'POST', auth: 'public', origin: 'spec' });
        expect(signIn.parameters).toEqual([
          expect.objectContaining({ name: 'tokenID', place: 'query', required: '0' }),
          expect.objectContaining({ name: 'username', place: 'query', required: '1' }),
          expect.objectContaining({ name: 'eventID', place: 'query', required: '0', type: expect.stringContaining('[1-9]') }), // prettier-ignore
          expect.objectContaining({ name: 'password', place: 'body', required: '1' }),
        ]);
        const edit = rows.find((r) => r.name === 'event.edit')!;
        expect(edit).toMatchObject({ methods: 'POST', auth: 'event:admin' });
        expect(edit.summary).toContain('accessCode');
        const get = rows.find((r) => r.name === 'company.get') as unknown as Record<string, unknown>;
        expect(get.variants).toEqual([
          { required: 'companyID' },
          { required: 'namespace' },
          { required: 'onboardingToken' },
        ]);
        expect(rows.find((r) => r.name === 'company.create')).toMatchObject({
          auth: 'operator',
          writes: '1',
          cachePublic: '0',
        });
        expect(rows.find((r) => r.name === 'event.get')).toMatchObject({ writes: '0', cachePublic: '1' });
        expect(rows.find((r) => r.name === 'company.person.find')).toMatchObject({ auth: 'company:member' });
      });

      it('needs a token and GET', async () => {
        await c.fail('api.describe', {}, 401);
        await c.fail('api.describe', { token: w.operator, method: 'POST', body: {} }, 405);
      });

      it('GET /openapi.json is OpenAPI 3.1 with a path per operation', async () => {
        const res = await fetch(`${p.url}/openapi.json`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const doc = (await res.json()) as {
          openapi: string;
          paths: Record<
            string,
            Record<string, { operationId: string; parameters: { name: string; in: string }[]; requestBody?: unknown }>
          >;
        };
        expect(doc.openapi).toMatch(/^3\.1\./);
        expect(Object.keys(doc.paths).sort()).toEqual(
          operations.map((op) => `/${op.name.replaceAll('.', '/')}`).sort(),
        );
        const ids: string[] = [];
        for (const op of operations) {
          const path = doc.paths[`/${op.name.replaceAll('.', '/')}`];
          expect(Object.keys(path).sort()).toEqual(op.methods.map((m: string) => m.toLowerCase()).sort());
          // The main method (POST for a write, GET for a read) is named as the operation.
          const main = op.methods.includes(op.writes ? 'POST' : 'GET') ? (op.writes ? 'POST' : 'GET') : op.methods[0];
          expect(path[main.toLowerCase()].operationId).toBe(op.name);
          const params = op.params as Record<string, Param>;
          const hasBody = Object.values(params).some((x) => x.place === 'body');
          for (const [method, o] of Object.entries(path)) {
            ids.push(o.operationId);
            // A token may be given to every operation (a public one takes it when given).
            expect(o.parameters.map((x) => x.name)).toContain('tokenID');
            for (const n of Object.keys(params).filter((k) => params[k].place === 'query'))
              expect(
                o.parameters.map((x) => x.name),
                `${op.name} ${n}`,
              ).toContain(n);
            // A GET carries no body where the operation takes POST.
            const bodied = hasBody && !(method === 'get' && op.methods.includes('POST'));
            expect(o.requestBody !== undefined, `${method} ${op.name}`).toBe(bodied);
          }
        }
        // operationIds are unique (OpenAPI requires it; generated clients name methods by them).
        expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
      });

      it("OpenAPI's 200 answers are the operations' wire rows, and the platform's rows have their fields", async () => {
        const doc = (await (await fetch(`${p.url}/openapi.json`)).json()) as {
          paths: Record<string, Record<string, { responses: Record<string, any> }>>;
        };
        const rowOf = (name: string) =>
          doc.paths[`/${name.replaceAll('.', '/')}`].get.responses['200'].content['application/json'].schema.properties
            .data.items;
        for (const name of Object.keys(ANSWERS)) expect(operations.map((op) => op.name)).toContain(name);
        // Every value on the wire is a string (spec §1.2); arrays hold rows.
        const speaker = rowOf('speaker.find');
        expect(Object.keys(speaker.properties).sort()).toEqual(Object.keys(speakerWire.shape).sort());
        for (const v of Object.values(speaker.properties) as { type: string }[]) expect(v.type).toBe('string');
        expect(rowOf('activity.find').properties.speakers.type).toBe('array');
        expect(rowOf('api.describe').additionalProperties).toBe(true); // no row declared: any object
        // What the platform sends to an admin has exactly the fields its wire row names.
        const [activity] = await c.ok('activity.create', {
          token: w.adminA,
          query: { eventID: w.eventA.eventID },
          body: { name: 'Wire row' },
        });
        for (const [name, query, wire] of [
          ['event.get', { eventID: w.eventA.eventID }, eventWire],
          ['company.get', { companyID: w.companyA.companyID }, companyWire],
          ['activity.find', { eventID: w.eventA.eventID }, activityWire],
          ['event.person.get', { eventID: w.eventA.eventID, personID: String(w.attendeeID) }, attendeeWire],
          ['company.tool.get', { companyID: w.companyA.companyID }, toolsWire],
          ['api.ping', {}, pingWire],
        ] as const) {
          const [row] = await c.ok(name, { token: w.adminA, query });
          expect(Object.keys(row).sort(), name).toEqual(Object.keys(wire.shape).sort());
        }
        // Writes answer their resource's row too.
        expect(Object.keys(activity).sort(), 'activity.create').toEqual(Object.keys(activityWire.shape).sort());
        for (const [name, query, wire] of [
          ['event.edit', { eventID: w.eventA.eventID, key: 'description' }, eventWire],
          ['company.edit', { companyID: w.companyA.companyID, key: 'storeTitle' }, companyWire],
          ['activity.edit', { activityID: activity.activityID, key: 'description' }, activityWire],
          ['form.edit', { eventID: w.eventA.eventID, key: 'capacity' }, formWire],
        ] as const) {
          const [row] = await c.ok(name, { token: w.adminA, query, body: { value: '' } });
          expect(Object.keys(row).sort(), name).toEqual(Object.keys(wire.shape).sort());
        }
        await c.ok('activity.remove', { token: w.adminA, query: { activityID: activity.activityID } });
        expect(rowOf('event.person.find').properties.tags.type).toBe('array');
        expect(Object.keys(rowOf('activity.tag.bind').properties).sort()).toEqual(['activityID', 'tagID']);
      });
    });

    describe('api.ping', () => {
      it.each(['GET', 'POST'] as const)('answers the server clock to %s, with or without a token', async (method) => {
        for (const token of [undefined, w.attendee]) {
          const before = nowSeconds();
          const [row] = await c.ok('api.ping', { method, token, ...(method === 'POST' ? { body: {} } : {}) });
          expect(row.pong).toBe('1');
          expect(Number(row.time)).toBeGreaterThanOrEqual(before);
          expect(Number(row.time)).toBeLessThanOrEqual(nowSeconds());
        }
      });

      it('answers a stale token 401, like every public operation but signIn, recover, confirm, registration', async () => {
        await c.fail('api.ping', { token: 'y'.repeat(60) }, 401, /^401 tokenID is not valid or has expired$/);
      });
    });

    describe('billing.find', () => {
      let rows: { a: number; aEvent: number; b: number };
      beforeAll(async () => {
        const insert = async (
          companyID: string,
          eventID: string | null,
          product: 'email' | 'sms',
          amount: number,
          sent: number,
        ) =>
          // prettier-ignore
          (
            await p.db
              .insertInto('billing')
              .values({ companyID: Number(companyID), eventID: eventID === null ? null : Number(eventID), product, amount, sent }) // prettier-ignore
              .returning('billingID')
              .executeTakeFirstOrThrow()
          ).billingID;
        rows = {
          a: await insert(w.companyA.companyID, null, 'email', 1000, 250),
          aEvent: await insert(w.companyA.companyID, w.eventA.eventID, 'email', 300, 100),
          b: await insert(w.companyB.companyID, null, 'sms', 10, 0),
        };
        await insert(w.companyA.companyID, null, 'sms', 50, 80); // more sent than bought
      });

      it('lists the company balances (not the events’) by companyID, with remaining', async () => {
        const data = await c.ok('billing.find', { token: w.adminA, query: { companyID: w.companyA.companyID } });
        expect(data.map((r) => [r.product, r.amount, r.sent, r.remaining, r.eventID])).toEqual([
          ['email', '1000', '250', '750', '0'],
          ['sms', '50', '80', '0', '0'],
        ]);
        expect(data[0]).toMatchObject({ billingID: String(rows.a), companyID: w.companyA.companyID });
      });

      it('lists one event’s balances by eventID', async () => {
        for (const token of [w.adminA, w.eventAdminSystem, w.operator]) {
          const data = await c.ok('billing.find', { token, query: { eventID: w.eventA.eventID } });
          expect(data).toEqual([
            expect.objectContaining({ billingID: String(rows.aEvent), eventID: w.eventA.eventID, remaining: '200' }),
          ]);
        }
        expect(await c.ok('billing.find', { token: w.adminB, query: { eventID: w.eventB.eventID } })).toEqual([]);
        const [b] = await c.ok('billing.find', { token: w.adminB, query: { companyID: w.companyB.companyID } });
        expect(b).toMatchObject({ billingID: String(rows.b), product: 'sms', remaining: '10' });
      });

      it.each([
        ['another company', 'adminB', { companyID: 'A' }, 404],
        ['another company’s event', 'adminB', { eventID: 'A' }, 404],
        ['an external user', 'externalA', { companyID: 'A' }, 403],
        ['an attendee', 'attendeeSystem', { eventID: 'A' }, 403],
        ['a downgraded event-scope admin', 'eventAdminEventScope', { eventID: 'A' }, 403],
        ['a company read with an event-scope token', 'eventAdminEventScope', { companyID: 'A' }, 403],
        ['neither companyID nor eventID', 'adminA', {}, 400],
        ['a bad companyID', 'adminA', { companyID: '0' }, 400],
        ['no token', undefined, { companyID: 'A' }, 401],
      ] as const)('refuses %s', async (_, who, target, status) => {
        const query: Record<string, string> = {};
        if ('companyID' in target) query.companyID = target.companyID === 'A' ? w.companyA.companyID : target.companyID;
        if ('eventID' in target) query.eventID = w.eventA.eventID;
        await c.fail('billing.find', { token: who ? w[who] : undefined, query }, status);
      });
    });
  });
});
