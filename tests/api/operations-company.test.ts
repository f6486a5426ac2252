// Company operations over real HTTP, in both call styles and on both stores (spec §4.3, §2.6).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_SWITCHES } from '../../src/platform/db/schema.ts';
import { TOOL_EDIT_KEYS } from '../../src/platform/resources/company/operations/tool/edit.ts';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf, type Client } from '../helpers/operations.ts';

const ADMIN_FLAGS = ['androidReview', 'iosReview', 'initialDemo'];
const long = (n: number) => 'x'.repeat(n);

/** [key, valid value, value read back, invalid value] for every company.edit key. */
const ONBOARDING_EDITS: [string, string, string, string][] = [
  ['shortName', 'Renamed Co', 'Renamed Co', long(121)],
  ['storeTitle', 'Renamed App', 'Renamed App', long(1001)],
  ['appIcon', 'https://cdn.example.com/icon.png', 'https://cdn.example.com/icon.png', 'ftp://cdn.example.com/i.png'],
  ['storeIcon', 'https://cdn.example.com/store.png', 'https://cdn.example.com/store.png', 'not a url'],
  ['keywords', 'events, tickets', 'events, tickets', long(1001)],
  ['backgroundColor', '#1A2B3C', '#1A2B3C', 'red'],
  ['navigationBarBackgroundColor', '#fff', '#fff', '#ggg'],
  ['mainColor', '#123456', '#123456', '123456'],
  ['splash', 'https://cdn.example.com/splash.png', 'https://cdn.example.com/splash.png', 'https://'],
];
const ADMIN_ONLY_EDITS: [string, string, string, string][] = [
  ['location', 'Lisbon, Portugal', 'Lisbon, Portugal', long(1001)],
  ['cover', 'https://cdn.example.com/cover.png', 'https://cdn.example.com/cover.png', 'javascript:alert(1)'],
  ['androidBundle', 'com.example.app', 'com.example.app', long(1001)],
  ['iosBundle', 'com.example.ios', 'com.example.ios', long(1001)],
  ['agreement', '<p onclick="x()">Terms</p><script>alert(1)</script>', '<p>Terms</p>', long(20001)],
  ['language', 'pt-BR', 'pt-BR', 'Portuguese'],
  ['androidReview', '1', '1', '2'],
  ['iosReview', '1', '1', 'yes'],
  ['initialDemo', '1', '1', '-1'],
  ['namespace', 'renamed-co', 'renamed-co', 'Renamed Co'],
  ['currency', 'EUR', 'EUR', 'eur'],
];

describe.each(STORES)('company operations on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let importDir: string;
    let outside: string;
    beforeAll(async () => {
      const base = mkdtempSync(join(tmpdir(), 'podium-import-'));
      importDir = join(base, 'imports');
      mkdirSync(importDir);
      outside = join(base, 'x.csv');
      writeFileSync(outside, 'shortName\nOutside Co\n');
      writeFileSync(
        join(importDir, 'companies.csv'),
        'shortName,appIcon\r\nBulk One,https://cdn.example.com/one.png\r\n"Bulk, ""Two""",\r\n,\r\n',
      );
      writeFileSync(join(importDir, 'bad-name.csv'), 'shortName,appIcon\nBad First,\n,https://cdn.example.com/x.png\n');
      writeFileSync(join(importDir, 'bad-icon.csv'), 'shortName,appIcon\nBad Icon,ftp://cdn.example.com/x.png\n');
      p = await startTestPlatform(kind, { IMPORT_DIR: importDir });
      w = await world(p);
      c = client(p, style);
    });
    afterAll(() => p?.close());

    const create = async (shortName: string, appIcon?: string) =>
      (await c.ok('company.create', { token: w.operator, body: { shortName, ...(appIcon ? { appIcon } : {}) } }))[0];
    const getAsAdmin = async (companyID: string) =>
      (await c.ok('company.get', { token: w.operator, query: { companyID } }))[0];

    describe('company.create', () => {
      it('creates one company with its namespace, tools and a one-time onboarding token', async () => {
        const row = await create('  Gamma Co  ', 'https://cdn.example.com/gamma.png');
        expect(row).toMatchObject({
          shortName: 'Gamma Co',
          storeTitle: 'Gamma Co',
          namespace: 'gamma-co',
          appIcon: 'https://cdn.example.com/gamma.png',
          androidReview: '0',
        });
        expect(row.onboardingToken).toMatch(/^[A-Za-z0-9_-]{60}$/);
        const [stored] = await c.ok('company.get', { query: { companyID: row.companyID } });
        expect(stored).toMatchObject({ shortName: 'Gamma Co', namespace: 'gamma-co' });
        const [byToken] = await c.ok('company.get', { query: { onboardingToken: row.onboardingToken } });
        expect(byToken.companyID).toBe(row.companyID);
        const [tools] = await c.ok('company.tool.get', { query: { companyID: row.companyID } });
        expect(tools).toMatchObject({ schedule: '1', speaker: '1', sponsors: '1', feedback: '0' });
      });

      it.each([
        ['Gamma Co', 'gamma-co-2'],
        ['Gamma Co', 'gamma-co-3'],
        ['Café Ñandú', 'cafe-nandu'],
        ['***', 'company'],
      ])('derives a unique namespace from %s', async (shortName, namespace) => {
        expect((await create(shortName)).namespace).toBe(namespace);
      });

      it('creates many from a CSV file inside IMPORT_DIR (B path)', async () => {
        const rows = await c.ok('company.create', { token: w.operator, body: { path: 'companies.csv' } });
        expect(rows.map((r) => [r.shortName, r.appIcon, r.namespace])).toEqual([
          ['Bulk One', 'https://cdn.example.com/one.png', 'bulk-one'],
          ['Bulk, "Two"', '', 'bulk-two'],
        ]);
        expect(new Set(rows.map((r) => r.onboardingToken)).size).toBe(2);
        for (const row of rows) {
          const [got] = await c.ok('company.get', { query: { onboardingToken: row.onboardingToken } });
          expect(got).toMatchObject({ companyID: row.companyID, shortName: row.shortName });
        }
      });

      it.each([
        ['a path outside the folder', () => '../x.csv', /inside the import folder/],
        ['an absolute path', () => outside, /inside the import folder/],
        ['the folder itself', () => '.', /inside the import folder/],
        ['a missing file', () => 'missing.csv', /readable/],
        ['a row without shortName (nothing is created)', () => 'bad-name.csv', /row 3: shortName/],
        ['a row with a bad appIcon', () => 'bad-icon.csv', /row 2: appIcon/],
      ])('refuses %s with 400', async (_, path, message) => {
        await c.fail('company.create', { token: w.operator, body: { path: path() } }, 400, message);
      });

      it('rolls back a refused file and never reads outside the folder', async () => {
        const all = await c.ok('company.find', { token: w.operator, query: { selection: 'all', limit: 100 } });
        expect(all.map((r) => r.shortName)).not.toContain('Bad First');
        expect(all.map((r) => r.shortName)).not.toContain('Outside Co');
      });

      it.each([
        ['a company admin', 'adminA', { shortName: 'Nope' }, 403],
        ['no token', undefined, { shortName: 'Nope' }, 401],
        ['neither shortName nor path', 'operator', { appIcon: 'https://cdn.example.com/i.png' }, 400],
        ['a blank shortName', 'operator', { shortName: '   ' }, 400],
        ['a long shortName', 'operator', { shortName: long(121) }, 400],
        ['a bad appIcon', 'operator', { shortName: 'Nope', appIcon: 'ftp://cdn.example.com/i.png' }, 400],
      ] as const)('refuses %s', async (_, who, body, status) => {
        await c.fail('company.create', { token: who ? w[who] : undefined, body }, status);
      });

      it('keeps nothing in sandbox mode', async () => {
        const [row] = await c.ok('company.create', {
          token: w.operator,
          query: { sandbox: 1 },
          body: { shortName: 'Sandboxed' },
        });
        expect(row.namespace).toBe('sandboxed');
        await c.fail('company.get', { query: { namespace: 'sandboxed' } }, 404);
      });
    });

    describe('company.edit', () => {
      let edit: Record<string, string>;
      let onboard: Record<string, string>;
      beforeAll(async () => {
        edit = await create('Edit Co');
        onboard = await create('Onboard Co');
        // An existing person (found by e-mail) becomes admin of the company.
        await c.ok('company.person.bind', {
          token: w.operator,
          query: { companyID: edit.companyID },
          body: { name: 'ignored', email: 'admin-a@podium.test' },
        });
      });

      /** company.edit by tokenID + companyID (or any other query form), answered as is. */
      const editAs = (token: string | undefined, query: Record<string, string>, value: string | number) =>
        c.call('company.edit', { token, query, body: { value } });

      it.each([...ONBOARDING_EDITS, ...ADMIN_ONLY_EDITS])(
        'admin sets %s, reads it back, and refuses an invalid value',
        async (key, valid, stored, invalid) => {
          const q = { companyID: edit.companyID, key };
          expect((await editAs(w.adminA, q, valid)).data[0][key]).toBe(stored);
          expect((await getAsAdmin(edit.companyID))[key]).toBe(stored);
          expect((await editAs(w.adminA, q, invalid)).status).toBe(400);
          expect((await getAsAdmin(edit.companyID))[key]).toBe(stored);
        },
      );

      it.each([
        ['storeTitle', 200, ''],
        ['appIcon', 200, ''],
        ['backgroundColor', 200, ''],
        ['shortName', 400, 'Renamed Co'],
        ['androidReview', 400, '1'],
        ['namespace', 400, 'renamed-co'],
      ])('an empty value for %s clears it or is refused', async (key, status, after) => {
        expect((await editAs(w.adminA, { companyID: edit.companyID, key }, '')).status).toBe(status);
        expect((await getAsAdmin(edit.companyID))[key]).toBe(after);
      });

      // prettier-ignore
      it.each(['companyID', 'onboardingTokenHash', 'onboardingExpiresAt', 'dateCreated', 'androidApp', '__proto__', 'constructor'])(
        'refuses the unknown key %s (no mass assignment)',
        async (key) => {
          const before = await getAsAdmin(edit.companyID);
          const r = await editAs(w.adminA, { companyID: edit.companyID, key }, '7');
          expect(r.text).toMatch(/^400 key .* cannot be edited here; keys: \w/);
          expect(await getAsAdmin(edit.companyID)).toEqual(before);
        },
      );

      it('refuses a namespace used by another company with 409, keeps its own', async () => {
        const q = { companyID: edit.companyID, key: 'namespace' };
        expect((await editAs(w.adminA, q, w.companyB.namespace)).status).toBe(409);
        expect((await editAs(w.adminA, q, 'renamed-co')).status).toBe(200);
        expect((await getAsAdmin(edit.companyID)).namespace).toBe('renamed-co');
        expect((await getAsAdmin(w.companyB.companyID)).namespace).toBe(w.companyB.namespace);
      });

      it.each(ONBOARDING_EDITS)('the onboarding token sets %s', async (key, valid, stored, invalid) => {
        const q = { onboardingToken: onboard.onboardingToken, key };
        expect((await editAs(undefined, q, valid)).data[0]).toMatchObject({
          companyID: onboard.companyID,
          [key]: stored,
        });
        const [got] = await c.ok('company.get', { query: { onboardingToken: onboard.onboardingToken } });
        expect(got[key]).toBe(stored);
        expect((await editAs(undefined, q, invalid)).status).toBe(400);
      });

      it.each(ADMIN_ONLY_EDITS)('the onboarding token cannot set the admin-only key %s', async (key, valid) => {
        const r = await editAs(undefined, { onboardingToken: onboard.onboardingToken, key }, valid);
        expect(r.text).toMatch(/^400 key .* cannot be edited here; keys: \w/);
        expect((await getAsAdmin(onboard.companyID))[key]).not.toBe(valid);
      });

      it('refuses an expired onboarding token', async () => {
        const late = await create('Late Co');
        const expired = { onboardingExpiresAt: Math.floor(Date.now() / 1000) - 1 };
        await p.db.updateTable('company').set(expired).where('companyID', '=', Number(late.companyID)).execute();
        await c.fail('company.get', { query: { onboardingToken: late.onboardingToken } }, 404);
        expect((await editAs(undefined, { onboardingToken: late.onboardingToken, key: 'shortName' }, 'X')).status).toBe(404); // prettier-ignore
        expect((await getAsAdmin(late.companyID)).shortName).toBe('Late Co');
      });

      it.each([
        ['an unknown onboarding token', undefined, { onboardingToken: 'z'.repeat(60) }, 404],
        ['neither companyID nor onboardingToken', 'adminA', {}, 400],
        ['companyID without a token', undefined, { companyID: 'A' }, 401],
        ['an external user', 'externalA', { companyID: 'A' }, 403],
        ['an event-scope token', 'attendee', { companyID: 'A' }, 403],
        ['another company’s admin', 'adminB', { companyID: 'A' }, 404],
        ['a missing key', 'adminA', { companyID: 'A', key: '' }, 400],
      ] as const)('refuses %s', async (_, who, target, status) => {
        const query: Record<string, string> = { key: 'storeTitle', ...target };
        if (query.companyID === 'A') query.companyID = w.companyA.companyID;
        await c.fail('company.edit', { token: who ? w[who] : undefined, query, body: { value: 'Hijacked' } }, status);
        expect((await getAsAdmin(w.companyA.companyID)).storeTitle).toBe('Alpha Events');
      });
    });

    describe('company.get', () => {
      it('reads a company in all four forms; only admins see the store-review flags', async () => {
        const A = w.companyA;
        await c.ok('company.edit', {
          token: w.adminA,
          query: { companyID: A.companyID, key: 'initialDemo' },
          body: { value: 1 },
        });
        const forms = [
          [w.adminA, { companyID: A.companyID }, true],
          [undefined, { companyID: A.companyID }, false],
          [w.adminA, { namespace: A.namespace }, true],
          [undefined, { namespace: A.namespace.toUpperCase() }, false],
          [w.operator, { namespace: A.namespace }, true],
          [w.externalA, { companyID: A.companyID }, false],
          [w.adminB, { companyID: A.companyID }, false],
          [w.eventAdminEventScope, { companyID: A.companyID }, false],
          [undefined, { onboardingToken: A.onboardingToken }, true],
        ] as const;
        for (const [token, query, admin] of forms) {
          const rows = await c.ok('company.get', { token, query });
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({ companyID: A.companyID, shortName: 'Alpha Events', namespace: A.namespace });
          for (const flag of ADMIN_FLAGS) expect(flag in rows[0], `${flag} ${JSON.stringify(query)}`).toBe(admin);
          if (admin) expect(rows[0].initialDemo).toBe('1');
        }
      });

      it('shows an edit to anonymous readers at once (no stale cached answer)', async () => {
        const query = { companyID: w.companyB.companyID };
        expect((await c.ok('company.get', { query }))[0].keywords).toBe('');
        await c.ok('company.edit', { token: w.adminB, query: { ...query, key: 'keywords' }, body: { value: 'fresh' } });
        expect((await c.ok('company.get', { query }))[0].keywords).toBe('fresh');
      });

      it.each([
        ['an unknown companyID', { companyID: '999999' }, 404],
        ['an unknown namespace', { namespace: 'nobody-here' }, 404],
        ['an unknown onboarding token', { onboardingToken: 'q'.repeat(60) }, 404],
        ['no form', {}, 400],
        ['a bad companyID', { companyID: 'abc' }, 400],
      ])('refuses %s', async (_, query, status) => {
        await c.fail('company.get', { query }, status);
      });
    });

    describe('company.find', () => {
      let iconic: Record<string, string>;
      let iosOnly: Record<string, string>;
      const known = () => [w.companyA.companyID, w.companyB.companyID, iconic.companyID, iosOnly.companyID];
      const find = async (selection: string, token = w.operator) =>
        idsOf(await c.ok('company.find', { token, query: { selection, limit: 100 } }), 'companyID').filter((id) =>
          known().includes(id),
        );
      beforeAll(async () => {
        // A: no icon, waiting for Android review, no bundles. B: iOS review, only an Android bundle, a live
        // event. I (Iconic): icon, both bundles and both store links. J: only an iOS bundle and store link.
        iconic = await create('Iconic', 'https://cdn.example.com/iconic.png');
        iosOnly = await create('iOS Only');
        const set = (companyID: string, key: string, value: string | number) =>
          c.ok('company.edit', { token: w.operator, query: { companyID, key }, body: { value } });
        await set(w.companyA.companyID, 'androidReview', 1);
        await set(w.companyB.companyID, 'iosReview', 1);
        await set(w.companyB.companyID, 'androidBundle', 'com.beta.app');
        await set(iconic.companyID, 'androidBundle', 'com.iconic.app');
        await set(iconic.companyID, 'iosBundle', 'com.iconic.ios');
        await set(iosOnly.companyID, 'iosBundle', 'com.iosonly.ios');
        // Store links are not editable through the API.
        await p.db
          .updateTable('company')
          .set({ androidApp: 'https://play.example.com/iconic', iosApp: 'https://apps.example.com/iconic' })
          .where('companyID', '=', Number(iconic.companyID))
          .execute();
        await p.db
          .updateTable('company')
          .set({ iosApp: 'https://apps.example.com/ios-only' })
          .where('companyID', '=', Number(iosOnly.companyID))
          .execute();
        const now = Math.floor(Date.now() / 1000);
        const edit = (key: string, value: number) =>
          c.ok('event.edit', { token: w.adminB, query: { eventID: w.eventB.eventID, key }, body: { value } });
        await edit('dateBegin', now - 3600);
        await edit('dateEnd', now + 86400);
      });

      it.each([
        ['all', ['A', 'B', 'I', 'J']],
        ['lacksIcon', ['A', 'B', 'J']],
        ['androidQueue', ['A']],
        ['iosQueue', ['B']],
        ['lacksBundle', ['A', 'B', 'J']],
        ['notWhiteLabel', ['A']],
        ['missingLinks', ['A', 'B', 'J']],
        ['live', ['B']],
        ['lacksIcon|androidQueue', ['A']],
        ['lacksIcon|iosQueue|live', ['B']],
        ['androidQueue|iosQueue', []],
        ['all|missingLinks|lacksBundle', ['A', 'B', 'J']],
      ])('selection %s', async (selection, expected) => {
        const byLetter: Record<string, string> = {
          A: w.companyA.companyID,
          B: w.companyB.companyID,
          I: iconic.companyID,
          J: iosOnly.companyID,
        };
        expect(await find(selection)).toEqual(expected.map((l) => byLetter[l]));
      });

      it('lists only their own companies for non-operators', async () => {
        const ofA = idsOf(await c.ok('company.find', { token: w.adminA, query: { selection: 'all' } }), 'companyID');
        expect(ofA).toContain(w.companyA.companyID);
        expect(ofA).not.toContain(w.companyB.companyID);
        expect(
          idsOf(await c.ok('company.find', { token: w.adminB, query: { selection: 'all' } }), 'companyID'),
        ).toEqual([w.companyB.companyID]);
        expect(await c.ok('company.find', { token: w.attendeeSystem, query: { selection: 'all' } })).toEqual([]);
        const [row] = await c.ok('company.find', { token: w.adminA, query: { selection: 'androidQueue' } });
        expect(row).toMatchObject({ companyID: w.companyA.companyID, androidReview: '1' });
      });

      it('hides the store-review flags from external users, as company.get does', async () => {
        const [row] = await c.ok('company.find', { token: w.externalA, query: { selection: 'all' } });
        expect(row.companyID).toBe(w.companyA.companyID);
        for (const flag of ADMIN_FLAGS) expect(row).not.toHaveProperty(flag);
        // Nor can a selection on a hidden flag reveal it.
        expect(await c.ok('company.find', { token: w.externalA, query: { selection: 'androidQueue' } })).toEqual([]);
      });

      it('pages with limit and offset; paginated=1 adds the total', async () => {
        const all = await c.ok('company.find', { token: w.operator, query: { selection: 'all', limit: 100 } });
        expect(all.length).toBeGreaterThanOrEqual(5);
        expect(idsOf(all, 'companyID').map(Number)).toEqual(
          [...all.map((r) => Number(r.companyID))].sort((a, b) => a - b),
        );
        const r = await c.call('company.find', {
          token: w.operator,
          query: { selection: 'all', limit: 2, offset: 1, paginated: 1 },
        });
        expect(r.total).toBe(String(all.length));
        expect(idsOf(r.data as Record<string, string>[], 'companyID')).toEqual(idsOf(all.slice(1, 3), 'companyID'));
        const plain = await c.call('company.find', { token: w.operator, query: { selection: 'all', limit: 2 } });
        expect(plain.total).toBeUndefined();
        expect(plain.count).toBe(2);
        expect((await c.call('company.find', { token: w.operator, query: { selection: 'all' } })).count).toBe(
          Math.min(20, all.length),
        );
        const queue = await c.ok('company.find', { token: w.operator, query: { selection: 'androidQueue' } });
        const sel = await c.call('company.find', {
          token: w.operator,
          query: { selection: 'androidQueue', paginated: 1, limit: 1 },
        });
        expect(sel.total).toBe(String(queue.length));
        expect(Number(sel.total)).toBeLessThan(all.length);
      });

      it.each([
        ['no token', undefined, { selection: 'all' }, 401],
        ['no selection', 'operator', {}, 400],
        ['an unknown selection', 'operator', { selection: 'all|nope' }, 400],
        ['limit 0', 'operator', { selection: 'all', limit: 0 }, 400],
        ['limit 101', 'operator', { selection: 'all', limit: 101 }, 400],
        ['a negative offset', 'operator', { selection: 'all', offset: -1 }, 400],
        ['paginated=2', 'operator', { selection: 'all', paginated: 2 }, 400],
      ] as const)('refuses %s', async (_, who, query, status) => {
        await c.fail('company.find', { token: who ? w[who] : undefined, query }, status);
      });
    });

    describe('company.person.bind / operate / dismiss / find', () => {
      const A = () => w.companyA.companyID;
      const people = async (companyID = A(), token = w.adminA) =>
        c.ok('company.person.find', { token, query: { companyID, selection: 'all', limit: 100 } });
      const bind = (body: Record<string, string | number>, companyID = A(), token = w.adminA) =>
        c.ok('company.person.bind', { token, query: { companyID }, body });
      const operate = (personID: string, value: number | string, companyID = A(), token = w.adminA) =>
        c.call('company.person.operate', { token, query: { companyID, personID, key: 'level' }, body: { value } });
      const dismiss = (personID: string, companyID = A(), token = w.adminA) =>
        c.call('company.person.dismiss', { token, query: { companyID, personID } });

      let newAdmin: Record<string, string>;
      let newExternal: Record<string, string>;
      let omar: Record<string, string>; // an admin with a password (an operator's bind)

      it('binds a new person as admin (default); only an operator gives them a password', async () => {
        // A company admin choosing the password of an address nobody proved would own that identity.
        const chosen = { name: 'Nora Admin', email: 'Nora@Podium.test', password: 'nora password' };
        await c.fail('company.person.bind', { token: w.adminA, query: { companyID: A() }, body: chosen }, 403, /^403 password is for platform operators/); // prettier-ignore
        [newAdmin] = await bind({ name: 'Nora Admin', email: 'Nora@Podium.test' });
        expect(newAdmin).toMatchObject({ name: 'Nora Admin', email: 'nora@podium.test', level: '4' });
        await c.fail('person.signIn', { query: { username: 'nora@podium.test' }, body: { password: 'nora password' } }, 401); // prettier-ignore
        [omar] = await bind({ name: 'Omar Admin', email: 'omar@podium.test', password: 'omar password' }, A(), w.operator); // prettier-ignore
        const token = await p.signIn('omar@podium.test', 'omar password');
        expect(idsOf(await people(A(), token), 'personID')).toContain(omar.personID);
      });

      it('binds an external user with level=0, and an existing person by e-mail', async () => {
        [newExternal] = await bind({ name: 'Ext', email: 'ext@podium.test', level: 0 });
        expect(newExternal.level).toBe('1');
        const [existing] = await bind({ name: 'Another Name', email: 'ATTENDEE@podium.test', level: 0 });
        // The company's record of an existing person is what it sent, not their own profile.
        expect(existing).toMatchObject({
          personID: String(w.attendeeID),
          name: 'Another Name',
          email: 'attendee@podium.test',
          level: '1',
        });
        const listed = await people();
        expect(listed.find((r) => r.personID === newExternal.personID)).toMatchObject({
          level: '1',
          email: 'ext@podium.test',
        });
      });

      it.each([
        ['a person already in the company', 'adminA', { name: 'Again', email: 'ext@podium.test' }, 409],
        ['a bad e-mail', 'adminA', { name: 'X', email: 'not-an-email' }, 400],
        ['a short password', 'adminA', { name: 'X', email: 'short@podium.test', password: 'short' }, 400],
        ['level 2', 'adminA', { name: 'X', email: 'lvl@podium.test', level: 2 }, 400],
        ['no name', 'adminA', { email: 'noname@podium.test' }, 400],
        ['an external user', 'externalA', { name: 'X', email: 'x1@podium.test' }, 403],
        ['an event-scope token', 'eventAdminEventScope', { name: 'X', email: 'x2@podium.test' }, 403],
        ['another company’s admin', 'adminB', { name: 'X', email: 'x3@podium.test' }, 404],
      ] as const)('bind refuses %s', async (_, who, body, status) => {
        await c.fail('company.person.bind', { token: w[who], query: { companyID: A() }, body }, status);
      });

      it.each([
        ['personID', 'ASC'],
        ['personID', 'DESC'],
        ['name', 'ASC'],
        ['name', 'DESC'],
        ['email', 'ASC'],
        ['email', 'DESC'],
        ['level', 'ASC'],
        ['level', 'DESC'],
      ] as const)('find orders by %s %s (ties by personID)', async (order, orientation) => {
        const all = await people();
        expect(all.length).toBeGreaterThanOrEqual(5);
        const sign = orientation === 'ASC' ? 1 : -1;
        const key = (r: Record<string, string>) =>
          order === 'personID' || order === 'level' ? Number(r[order]) : r[order];
        const expected = [...all].sort((x, y) => {
          const [a, b] = [key(x), key(y)];
          return a < b ? -sign : a > b ? sign : Number(x.personID) - Number(y.personID);
        });
        const got = await c.ok('company.person.find', {
          token: w.adminA,
          query: { companyID: A(), selection: 'all', order, orderOrientation: orientation },
        });
        expect(idsOf(got, 'personID')).toEqual(idsOf(expected, 'personID'));
      });

      it('find pages, and any person of the company may list', async () => {
        const all = await people();
        expect(idsOf(all, 'personID')).toEqual(expect.arrayContaining([newAdmin.personID, String(w.attendeeID)]));
        const r = await c.call('company.person.find', {
          token: w.externalA,
          query: { companyID: A(), selection: 'all', limit: 2, offset: 1, paginated: 1 },
        });
        expect(r.total).toBe(String(all.length));
        expect(idsOf(r.data as Record<string, string>[], 'personID')).toEqual(idsOf(all.slice(1, 3), 'personID'));
        for (const [who, query, status] of [
          ['adminB', { selection: 'all' }, 404],
          ['attendee', { selection: 'all' }, 403],
          ['adminA', { selection: 'admins' }, 400],
          ['adminA', { selection: 'all', order: 'age' }, 400],
          ['adminA', { selection: 'all', orderOrientation: 'down' }, 400],
        ] as const)
          await c.fail('company.person.find', { token: w[who], query: { companyID: A(), ...query } }, status);
      });

      it('operate makes an external user admin and back', async () => {
        expect((await operate(newExternal.personID, 1)).data[0]).toMatchObject({
          personID: newExternal.personID,
          level: '4',
        });
        expect((await people()).find((r) => r.personID === newExternal.personID)?.level).toBe('4');
        expect((await operate(newExternal.personID, 0)).data[0].level).toBe('1');
        expect((await people()).find((r) => r.personID === newExternal.personID)?.level).toBe('1');
      });

      it.each([
        ['a person of another company', 'adminA', 'otherCompany', 'level', 1, 404],
        ['a person that does not exist', 'adminA', 'missing', 'level', 1, 404],
        ['another key', 'adminA', 'external', 'name', 1, 400],
        ['value 2', 'adminA', 'external', 'level', 2, 400],
        ['an external user caller', 'externalA', 'external', 'level', 1, 403],
      ] as const)('operate refuses %s', async (_, who, target, key, value, status) => {
        const personID = {
          otherCompany: (await people(w.companyB.companyID, w.adminB))[0].personID,
          missing: '999999',
          external: newExternal.personID,
        }[target];
        const query = { companyID: A(), personID, key };
        await c.fail('company.person.operate', { token: w[who], query, body: { value } }, status);
        expect((await people()).find((r) => r.personID === newExternal.personID)?.level).toBe('1');
      });

      it('dismiss removes a person, who then loses access', async () => {
        const token = await p.signIn('omar@podium.test', 'omar password');
        const r = await dismiss(omar.personID);
        expect(r.status).toBe(200);
        expect(r.data[0]).toMatchObject({ personID: omar.personID, level: '4' });
        expect(idsOf(await people(), 'personID')).not.toContain(omar.personID);
        await c.fail('company.person.find', { token, query: { companyID: A(), selection: 'all' } }, 404);
        expect((await dismiss(omar.personID)).status).toBe(404);
        expect((await dismiss(newExternal.personID, A(), w.externalA)).status).toBe(403);
        expect((await dismiss(newExternal.personID, A(), w.adminB)).status).toBe(404);
      });

      it('keeps at least one admin: demoting or dismissing the last one is 409', async () => {
        const solo = await create('Solo Co');
        const [first] = await bind({ name: 'Solo', email: 'solo@podium.test' }, solo.companyID, w.operator);
        expect((await operate(first.personID, 0, solo.companyID, w.operator)).status).toBe(409);
        expect((await dismiss(first.personID, solo.companyID, w.operator)).status).toBe(409);
        const [second] = await bind({ name: 'Duo', email: 'duo@podium.test' }, solo.companyID, w.operator);
        expect((await operate(first.personID, 0, solo.companyID, w.operator)).status).toBe(200);
        expect((await operate(second.personID, 0, solo.companyID, w.operator)).status).toBe(409);
        expect((await dismiss(second.personID, solo.companyID, w.operator)).status).toBe(409);
        expect((await dismiss(first.personID, solo.companyID, w.operator)).status).toBe(200);
        const left = await people(solo.companyID, w.operator);
        expect(left.map((r) => [r.personID, r.level])).toEqual([[second.personID, '4']]);
      });
    });

    describe('company.tool.edit / get / available', () => {
      const A = () => w.companyA.companyID;
      const tools = async () => (await c.ok('company.tool.get', { query: { companyID: A() } }))[0];

      it.each([...TOOL_EDIT_KEYS])('turns %s on and off', async (key) => {
        const q = { companyID: A(), key };
        const [on] = await c.ok('company.tool.edit', { token: w.adminA, query: q, body: { value: 1 } });
        expect(on[key]).toBe('1');
        expect((await tools())[key]).toBe('1');
        await c.ok('company.tool.edit', { token: w.adminA, query: q, body: { value: 0 } });
        expect((await tools())[key]).toBe('0');
        await c.fail('company.tool.edit', { token: w.adminA, query: q, body: { value: 2 } }, 400);
      });

      it.each([
        ...TOOL_SWITCHES.filter((t) => !(TOOL_EDIT_KEYS as readonly string[]).includes(t)),
        'id',
        'companyID',
        'nope',
      ])(
        // prettier-ignore
        'refuses the key %s',
        async (key) => {
          const before = await tools();
          await c.fail(
            'company.tool.edit',
            { token: w.adminA, query: { companyID: A(), key }, body: { value: 1 } },
            400,
          );
          expect(await tools()).toEqual(before);
        },
      );

      it.each([
        ['an external user', 'externalA', 403],
        ['another company’s admin', 'adminB', 404],
        ['no token', undefined, 401],
      ] as const)('edit refuses %s', async (_, who, status) => {
        const body = { value: 1 };
        await c.fail(
          'company.tool.edit',
          { token: who ? w[who] : undefined, query: { companyID: A(), key: 'quiz' }, body },
          status,
        );
        expect((await tools()).quiz).toBe('0');
      });

      it('get is public and names the company', async () => {
        const row = await tools();
        expect(Object.keys(row).sort()).toEqual(['companyID', 'id', ...TOOL_SWITCHES].sort());
        expect(row.companyID).toBe(A());
        expect((await c.ok('company.tool.get', { token: w.adminB, query: { companyID: A() } }))[0]).toEqual(row);
        await c.fail('company.tool.get', { query: { companyID: '999999' } }, 404);
        await c.fail('company.tool.get', { query: {} }, 400);
      });

      it('available lists every tool and whether it is editable', async () => {
        const rows = await c.ok('company.tool.available', { token: w.attendee });
        expect(rows).toEqual(
          TOOL_SWITCHES.map((tool) => ({ tool, editable: TOOL_EDIT_KEYS.includes(tool as never) ? '1' : '0' })),
        );
        expect(rows.filter((r) => r.editable === '1')).toHaveLength(TOOL_EDIT_KEYS.length);
        await c.fail('company.tool.available', {}, 401);
      });
    });
  });
});
