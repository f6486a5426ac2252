// Issue 10 defects 1, 9 and 10: what the kernel (dispatcher, edit parser) answers before an operation's
// own rules. Every table below is derived from the operation table, so an operation added later is
// covered without touching this file:
//   1. an edit-style operation (Q key, B value) with no `value` in the body — left out, or sent in the
//      query — answers 400 and changes nothing; an explicit empty `value=` still clears clearable keys;
//   9. a token that is not valid (unknown or expired) is answered 401 by every operation, public ones
//      included, before any parameter is read; only the operations flagged `staleTokenIgnored` (signIn,
//      recover, confirm, registration) run as anonymous, and the public answer cache never answers it;
//  10. a parameter in the wrong place says where it belongs; an unknown edit key lists the valid keys;
//      the operator 403 says how to become one; the relation writes accept POST as well as GET.
import { indexPending } from '../../src/platform/resources/search/pending.ts';
import { anyPending } from '../../src/platform/resources/search/repository.ts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/platform/catalog/index.ts';
import type { AnyOperation, Param } from '../../src/platform/kernel/table.ts';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';

type Values = Record<string, string>;
const paramsOf = (op: AnyOperation) => op.params as Record<string, Param>;

/** Edit-style operations (spec §1.3): `key` in the query, `value` in the body. */
const EDITS = operations.filter((op) => paramsOf(op).key?.place === 'query' && paramsOf(op).value?.place === 'body');

/**
 * Per edit operation, a key set to `value` before each case and whether an explicit empty value
 * clears it. Clearable keys are chosen where the operation has one: they are the ones the old code
 * emptied. An operation missing here is still checked, with the first key of its summary.
 */
const PRESET: Record<string, { key: string; value: string; clears: boolean }> = {
  'person.edit': { key: 'lastName', value: 'Keeper', clears: true },
  'company.edit': { key: 'location', value: 'Lisbon', clears: true },
  'company.person.operate': { key: 'level', value: '0', clears: false },
  'company.tool.edit': { key: 'quiz', value: '1', clears: false },
  'event.edit': { key: 'description', value: 'About the event', clears: true },
  'activity.edit': { key: 'location', value: 'Room 1', clears: true },
  'list.edit': { key: 'name', value: 'VIP', clears: false },
  'activity.person.operate': { key: 'paid', value: '1', clears: false },
  'speaker.edit': { key: 'headline', value: 'CTO', clears: true },
  'sponsor.edit': { key: 'companyName', value: 'Acme', clears: true },
  'tag.edit': { key: 'color', value: '#123456', clears: true },
  'event.hotsite.edit': { key: 'text', value: 'Welcome', clears: true },
  'event.person.operate': { key: 'role', value: 'Engineer', clears: true },
  'form.edit': { key: 'consent', value: 'I agree', clears: true },
  'feedback.edit': { key: 'description', value: 'Tell us', clears: true },
  // An empty types list means every type: value= clears it.
  'webhook.edit': { key: 'types', value: 'event.edit', clears: true },
  'event.sender.edit': { key: 'senderName', value: 'Org Team', clears: true },
  'event.sanity.operate': { key: 'clean', value: '0', clears: false },
  'comment.edit': { key: 'approved', value: '1', clears: false },
  'error.edit': { key: 'solved', value: '1', clears: false },
};

/** The edit keys an operation lists in its summary ("Keys: a, b." / "Admin keys: a, b. …"), first list. */
const summaryKeys = (op: AnyOperation) => /[Kk]eys: ([\w, ]+)\./.exec(op.summary)?.[1].split(', ') ?? [];

/** The relation writes of defect 10 (spec §4.5, §4.7 and Podium's list.person): GET and POST. */
const RELATION_WRITE =
  /^(activity\.(chain|list|speaker|sponsor|tag)\.(bind|dismiss)|list\.person\.(bind|dismiss)|chain\.remove)$/;
const RELATION_WRITES = operations.filter((op) => op.writes && RELATION_WRITE.test(op.name));

/** The pair table a relation write changes: activity.speaker.bind → activitySpeaker. */
const pairTable = (name: string) => {
  const [a, b] = name.split('.');
  return `${a}${b[0].toUpperCase()}${b.slice(1)}`;
};

describe.each(STORES)('kernel conformance (issue 10 defects 1, 9, 10) on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  /** Ids the operations' required parameters name: one object of each kind in company A's event A1. */
  let ids: Values;
  let expired: string;

  /** Every row of every table of this store, to show a refused call changed nothing. */
  const ASYNC_TABLES = new Set(['webhookDelivery', 'webhookAttempt', 'webhookFeed']);
  async function snapshot(): Promise<string> {
    // Attendees' search documents are written after their writes (search/pending.ts): the earlier calls'
    // first, so that a round finishing between two snapshots is not taken for the call's doing.
    while (await anyPending(p.db)) if ((await indexPending(p.db)) === 0) await new Promise((r) => setTimeout(r, 20));
    // This store's tables only: on PostgreSQL Kysely's introspection scans every schema of the database,
    // and another test file dropping its schema meanwhile makes that scan fail.
    const names =
      kind === 'postgres'
        ? (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
              p.db,
            )
          ).rows.map((r) => r.name)
        : (await p.db.introspection.getTables()).map((t) => t.name);
    // The webhook tables are written by the feeder and the workers after a call, at their own pace (even
    // a webhook that is off gets held deliveries, whose payloads a worker makes): not the call's doing.
    const tables = names.filter((n) => !n.startsWith('kysely_') && !ASYNC_TABLES.has(n)).sort();
    const out: Record<string, unknown> = {};
    for (const t of tables)
      out[t] = await p.db
        .selectFrom(t as 'event')
        .selectAll()
        .execute();
    // An attendee's address is checked after the write that made or edited them (the sanity feed's
    // sanity.check jobs, resources/sanity/job.ts), at the feed's and the jobs' pace: those jobs, their
    // rows and their changes are not the call's doing. The fixture's row stays, for event.sanity.operate.
    const checks = out as Record<string, Record<string, unknown>[]>;
    checks.eventSanity = checks.eventSanity.filter((r) => String(r.eventSanityID) === ids.eventSanityID);
    checks.change = checks.change.filter((r) => r.operation !== 'sanity.check');
    if (checks.job) checks.job = checks.job.filter((r) => r.name !== 'sanity.check'); // SQLite's queue
    return JSON.stringify(out);
  }

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    const eventID = Number(w.eventA.eventID);
    const insert = (table: string, values: Record<string, unknown>, key: string) =>
      p.insertRow(table, { eventID, ...values }, key);
    const external = (
      await p.ok('company.person.find', {
        token: w.operator,
        query: { companyID: w.companyA.companyID, selection: 'all' },
      })
    ).find((r) => r.email === 'external-a@podium.test')!.personID;
    ids = {
      eventID: w.eventA.eventID,
      companyID: w.companyA.companyID,
      activityID: await insert('activity', { name: 'A talk', dateBegin: 1900000000, dateEnd: 1900003600 }, 'activityID'), // prettier-ignore
      chainID: await insert('chain', { name: 'A chain' }, 'chainID'),
      listID: await insert('list', { name: 'A list' }, 'listID'),
      speakerID: await insert('speaker', { name: 'A speaker' }, 'speakerID'),
      sponsorID: await insert('sponsor', { name: 'A sponsor' }, 'sponsorID'),
      tagID: await insert('tag', { companyID: Number(w.companyA.companyID), name: 'A track', kind: 'activity' }, 'tagID'), // prettier-ignore
      sectionID: await insert('hotsite', { section: 'text', position: 1, name: 'A text' }, 'sectionID'),
      feedbackID: await insert('feedback', { name: 'A field', type: 'text', options: '[]' }, 'feedbackID'),
      // event.email.edit names its custom e-mail `source` (spec §4.9).
      source: await insert('eventEmail', { subject: 'A mail', text: 'Hi', date: 1 }, 'eventEmailID'),
      eventSanityID: await insert('eventSanity', { email: 'checked@podium.test', date: 1 }, 'eventSanityID'),
      // Inactive: an active one would send deliveries to example.com (the snapshots leave the webhook tables out).
      webhookID: await insert('webhook', { companyID: Number(w.companyA.companyID), personID: w.attendeeID, url: 'https://example.com/hook', types: '', active: 0, secret: 'sealed', createdAt: 1 }, 'webhookID'), // prettier-ignore
    };
    ids.budgetID = await insert('budget', { title: 'A cost', type: 'raw', price: 1, date: 1 }, 'budgetID');
    ids.adID = await insert('ad', { sponsorID: Number(ids.sponsorID) }, 'adID');
    // A beacon of company A bound to A1, with an action (issue 17), for beacon.action.edit.
    const beaconID = await p.insertRow('beacon', { companyID: Number(w.companyA.companyID), uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 1, date: 1 }, 'beaconID'); // prettier-ignore
    ids.beaconEventID = await insert('beaconEvent', { beaconID: Number(beaconID), date: 1 }, 'beaconEventID');
    ids.beaconActionID = await insert('beaconAction', { beaconEventID: Number(ids.beaconEventID), type: 'message', title: 'Hi', message: 'Hi', date: 1 }, 'beaconActionID'); // prettier-ignore
    // personID: company A's external user for company.person.operate, an attendee of A1 elsewhere.
    ids.personID = String(w.attendeeID);
    // A comment on A1's session and an error report filed under A1 (issue 16), for comment.edit and error.edit.
    ids.commentID = await insert('comment', { activityID: Number(ids.activityID), personID: w.attendeeID, text: 'A comment', date: 1 }, 'commentID'); // prettier-ignore
    ids.errorID = await p.insertRow('errorReport', { eventID, companyID: Number(w.companyA.companyID), platform: 'web', message: 'A failure', date: 1 }, 'errorID'); // prettier-ignore
    ids.companyPersonID = external;
    await p.ok('activity.person.bind', { token: w.operator, query: { activityID: ids.activityID, personID: ids.personID } }); // prettier-ignore
    // A real token, expired: issued by signIn, then dated in the past in the store.
    await p.person('expired@podium.test', PASSWORD);
    expired = await p.signIn('expired@podium.test', PASSWORD);
    await p.db.updateTable('token').set({ expiresAt: 1 }).where('personID', '=', await personOf('expired@podium.test')).execute(); // prettier-ignore
  }, 120_000);
  afterAll(() => p?.close());

  async function personOf(username: string): Promise<number> {
    const row = await p.db.selectFrom('person').select('personID').where('username', '=', username).executeTakeFirst();
    return row!.personID;
  }

  /** The query of an edit operation's call: its required query parameters (the first form), and key. */
  function editQuery(op: AnyOperation, key: string): Values {
    const query: Values = { key };
    const form = op.variants?.[0] ?? [];
    for (const [n, param] of Object.entries(paramsOf(op))) {
      if (n === 'key' || param.place !== 'query' || (param.optional && !form.includes(n))) continue;
      const v = n === 'personID' && op.name === 'company.person.operate' ? ids.companyPersonID : ids[n];
      if (v === undefined) throw new Error(`${op.name}: no test value for ${n}`);
      query[n] = v;
    }
    // Without personID the attendee operations edit the caller (the operator): name A1's attendee.
    if (paramsOf(op).personID?.place === 'query') query.personID ??= ids.personID;
    return query;
  }
  /** Edits are made by the operator, except the caller's own identity (person.edit: their system token). */
  const editToken = (op: AnyOperation) => (op.name === 'person.edit' ? w.attendeeSystem : w.operator);

  describe.each(STYLES)('%s style', (style) => {
    // ---- Defect 1 -------------------------------------------------------------------------------
    it('covers every edit-style operation of the table; api.describe shows their value as required', async () => {
      expect(EDITS.map((op) => op.name).sort()).toEqual(expect.arrayContaining(Object.keys(PRESET).sort()));
      expect(EDITS.length).toBeGreaterThanOrEqual(15);
      const described = await client(p, style).ok('api.describe', { token: w.operator });
      for (const op of EDITS) {
        const row = described.find((r) => r.name === op.name) as unknown as { parameters: Values[] };
        expect(
          row.parameters.find((x) => x.name === 'value'),
          op.name,
        ).toMatchObject({ place: 'body', required: '1' });
      }
    });

    it.each(EDITS.map((op) => [op.name, op] as const))(
      'defect 1: %s without a value in the body answers 400 and changes nothing; value= clears only clearable keys',
      async (_name, op) => {
        const c = client(p, style);
        const preset = PRESET[op.name];
        const key = preset?.key ?? summaryKeys(op)[0];
        const query = editQuery(op, key);
        const token = editToken(op);
        if (preset) await c.ok(op.name, { token, query, body: { value: preset.value } });
        const before = await snapshot();
        const empty = new RegExp(`^400 value cannot be empty \\(key ${key}\\)$`);
        // No body at all, an empty body, a body of a misspelt value, the value only in the query.
        await c.fail(op.name, { token, query, method: 'POST' }, 400, empty);
        await c.fail(op.name, { token, query, body: {} }, 400, empty);
        await c.fail(op.name, { token, query, body: { valeu: 'x' } }, 400, /^400 valeu is not a parameter of .*: did you mean value\?$/); // prettier-ignore
        await c.fail(
          op.name,
          { token, query: { ...query, value: preset?.value ?? '1' }, body: {} },
          400,
          /^400 value belongs in the request body$/,
        );
        expect(await snapshot()).toBe(before);
        if (!preset) return;
        // An explicit empty value: clears the keys that may be empty, and is refused for the others.
        if (preset.clears) {
          await c.ok(op.name, { token, query, body: { value: '' } });
          expect(await snapshot()).not.toBe(before);
        } else {
          await c.fail(op.name, { token, query, body: { value: '' } }, 400, empty);
          expect(await snapshot()).toBe(before);
        }
      },
    );

    // ---- Defect 9 -------------------------------------------------------------------------------
    // The magic links (issue 18): a stale token is why a link is asked for and exchanged, and signing out
    // with a token that has already ended answers the same as the first time.
    it('defect 9: exactly signIn, recover, confirm, the magic links, signOut and the registration form ignore a stale token', () => {
      const ignoring = operations.filter((op) => op.staleTokenIgnored).map((op) => op.name);
      expect(ignoring.sort()).toEqual([
        'form.respondRegistration',
        'person.confirm',
        'person.recover',
        'person.requestLink',
        'person.signIn',
        'person.signInLink',
        'person.signOut',
      ]);
      for (const op of operations.filter((o) => o.staleTokenIgnored)) expect(op.auth.kind).toBe('public');
    });

    it.each(operations.map((op) => [op.name, op] as const))(
      'defect 9: %s answers a stale or expired token with 401 before reading any parameter',
      async (_name, op) => {
        const c = client(p, style);
        const method = op.methods[0];
        const body = method === 'POST' ? {} : undefined;
        // Nothing but the token (and a format and sandbox that are wrong): the token is judged first.
        const query = { format: 'xml', sandbox: '2' };
        const anonymous = await c.call(op.name, { method, body, query });
        for (const sent of [
          { token: 'x'.repeat(60) },
          { bearer: 'x'.repeat(60) },
          { token: expired },
          { bearer: expired },
        ]) {
          const r = await c.call(op.name, { method, body, query, ...sent });
          if (op.staleTokenIgnored) expect(`${r.status} ${r.text}`).toBe(`${anonymous.status} ${anonymous.text}`);
          else expect(r.text).toBe('401 tokenID is not valid or has expired');
        }
      },
    );

    it('defect 9: public reads with a stale token are 401, never an anonymous or cached answer', async () => {
      const c = client(p, style);
      const stale = 'y'.repeat(60);
      const reads: [string, Values][] = [
        ['event.get', { eventID: ids.eventID }],
        ['company.get', { companyID: ids.companyID }],
        ['company.tool.get', { companyID: ids.companyID }],
        ['company.event.find', { companyID: ids.companyID, selection: 'all' }],
        ['activity.find', { eventID: ids.eventID }],
        ['form.get', { eventID: ids.eventID }],
        ['speaker.find', { eventID: ids.eventID }],
        ['api.ping', {}],
      ];
      for (const [name, query] of reads) {
        await c.ok(name, { query });
        await c.ok(name, { query }); // cached (cachePublic) where the operation is
        await c.fail(name, { query, token: stale }, 401, /^401 tokenID is not valid or has expired$/);
        await c.fail(name, { query, token: expired }, 401, /^401 tokenID is not valid or has expired$/);
        await c.fail(name, { query, bearer: stale }, 401, /^401 tokenID is not valid or has expired$/);
        await c.ok(name, { query, token: w.adminA });
      }
      // company.event.find requires a selection: the stale token is reported, not the missing parameter.
      await c.fail('company.event.find', { query: { companyID: ids.companyID }, token: stale }, 401, /^401 /);
    });

    it('defect 9: a client holding a stale token can still sign in, recover, confirm and register', async () => {
      const c = client(p, style);
      for (const stale of ['z'.repeat(60), expired]) {
        const rows = await c.ok('person.signIn', {
          token: stale,
          query: { username: 'expired@podium.test' },
          body: { password: PASSWORD },
        });
        expect(rows[0].tokenID).toMatch(/^.{60}$/);
        await c.ok('person.recover', { token: stale, query: { sandbox: 1 }, body: { email: 'expired@podium.test' } });
        // An unknown code: the anonymous answer (400), not 401.
        await c.fail(
          'person.confirm',
          { token: stale, body: { code: 'q'.repeat(60), password: PASSWORD } },
          400,
          /^400 (?!tokenID)/,
        );
        await c.ok('form.respondRegistration', {
          token: stale,
          query: { eventID: ids.eventID, sandbox: 1 },
          body: { firstName: 'S', lastName: 'T', email: 'stale@kernel.test', feedbackContent: '[]' },
        });
      }
    });

    // ---- Defect 10 ------------------------------------------------------------------------------
    it('defect 10: tokenID, action, format or sandbox in the body is refused with where it belongs', async () => {
      const c = client(p, style);
      const query = { eventID: ids.eventID, key: 'name' };
      const value = 'Kept name';
      for (const op of operations.filter((o) => o.methods.includes('POST'))) {
        const r = await c.call(op.name, { body: { tokenID: w.operator } });
        expect(r.text, op.name).toBe('400 tokenID belongs in the query string');
      }
      await c.fail('event.edit', { query, body: { value, tokenID: w.operator } }, 400, /^400 tokenID belongs in the query string$/); // prettier-ignore
      // Beside a token in the query or the header too: which one the caller meant is not for us to guess.
      const held = await snapshot();
      await c.fail('event.edit', { token: w.operator, query, body: { value, tokenID: w.operator } }, 400, /^400 tokenID belongs in the query string$/); // prettier-ignore
      await c.fail('event.edit', { bearer: w.operator, query, body: { value, tokenID: 'other' } }, 400, /^400 tokenID belongs in the query string$/); // prettier-ignore
      expect(await snapshot()).toBe(held);
      // sandbox=1 in the body would otherwise be ignored, and the edit committed.
      const before = await snapshot();
      await c.fail('event.edit', { token: w.operator, query, body: { value, sandbox: '1' } }, 400, /^400 sandbox belongs in the query string$/); // prettier-ignore
      await c.fail('event.edit', { token: w.operator, query, body: { value, format: 'excel' } }, 400, /^400 format belongs in the query string$/); // prettier-ignore
      expect(await snapshot()).toBe(before);
      // In both places: the same value says nothing new; another would be the one ignored.
      await c.fail('event.edit', { token: w.operator, query: { ...query, sandbox: '1' }, body: { value, sandbox: '0' } }, 400, /^400 sandbox belongs in the query string$/); // prettier-ignore
      expect(await snapshot()).toBe(before);
      await c.ok('event.edit', { token: w.operator, query: { ...query, sandbox: '1' }, body: { value, sandbox: '1' } });
      expect(await snapshot()).toBe(before);
      if (style === 'rpc') {
        const r = await p.call('', { style: 'rest', method: 'POST', body: { action: 'api.ping' } });
        expect(r.text).toBe('400 action belongs in the query string');
        const other = await p.call('', { style: 'rest', method: 'POST', query: { action: 'api.ping' }, body: { action: 'api.describe' } }); // prettier-ignore
        expect(other.text).toBe('400 action belongs in the query string');
      }
    });

    // The RESTful path names the operation: an `action` beside it naming another would be ignored.
    if (style === 'rest')
      it.each([
        ['the query names another', 'action=event.find', undefined, '400 action event.find is not the operation the path names, api.ping'], // prettier-ignore
        ['the body names another', '', 'action=event.find', '400 action event.find is not the operation the path names, api.ping'], // prettier-ignore
        ['given twice', 'action=api.ping&action=api.ping', undefined, '400 action must be given once'],
        ['the same name in the query', 'action=api.ping', undefined, undefined],
        ['the same name in the body', '', 'action=api.ping', undefined],
      ] as const)('RESTful style: an action beside the path, %s', async (_label, query, body, line) => {
        const r = await fetch(`${p.url}/api/ping?${query}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        const text = await r.text();
        if (line) expect(text).toBe(line);
        else expect(text).toMatch(/^\{"count":"1"/);
      });

    it('defect 10: every declared parameter sent only in the other place says where it belongs', async () => {
      const c = client(p, style);
      const problems: string[] = [];
      for (const op of operations) {
        if (!op.methods.includes('POST')) {
          // A GET carries no body: a body parameter in its query is the only misplacement possible.
          for (const [name, param] of Object.entries(paramsOf(op)))
            if (param.place === 'body') {
              const r = await c.call(op.name, { token: w.operator, method: 'GET', query: { [name]: '1' } });
              if (r.text !== `400 ${name} belongs in the request body`) problems.push(`${op.name} ${name}: ${r.text}`);
            }
          continue;
        }
        for (const [name, param] of Object.entries(paramsOf(op))) {
          const wrong = param.place === 'query' ? { body: { [name]: '1' } } : { query: { [name]: '1' }, body: {} };
          const r = await c.call(op.name, { token: w.operator, method: 'POST', ...wrong });
          const where = param.place === 'query' ? 'query string' : 'request body';
          if (r.text !== `400 ${name} belongs in the ${where}`) problems.push(`${op.name} ${name}: ${r.text}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it.each(EDITS.filter((op) => op.name !== 'company.person.operate').map((op) => [op.name, op] as const))(
      'defect 10: %s names the valid keys when the key is unknown',
      async (_name, op) => {
        const c = client(p, style);
        const r = await c.call(op.name, { token: editToken(op), query: editQuery(op, 'nope'), body: { value: '1' } });
        const keys = summaryKeys(op);
        expect(keys.length).toBeGreaterThan(0);
        expect(r.text).toBe(`400 key nope cannot be edited here; keys: ${keys.join(', ')}`);
      },
    );

    it('defect 10: an operator-only operation tells others how an operator is made', async () => {
      const c = client(p, style);
      const operatorOnly = operations.filter((op) => op.auth.kind === 'operator');
      expect(operatorOnly.length).toBeGreaterThan(0);
      for (const op of operatorOnly)
        for (const token of [w.adminA, w.attendeeSystem, w.attendee]) {
          const method = op.methods[0];
          const r = await c.call(op.name, { token, method, body: method === 'POST' ? {} : undefined });
          expect(r.text, op.name).toBe(
            '403 platform operator access required (operators are made with npx podium admin create)',
          );
        }
    });

    it('defect 10: the relation writes accept POST as well as GET, parameters in the query', async () => {
      const c = client(p, style);
      expect(RELATION_WRITES.map((op) => op.name).sort()).toEqual(
        [
          'activity.chain.bind',
          'activity.chain.dismiss',
          'activity.list.bind',
          'activity.list.dismiss',
          'activity.speaker.bind',
          'activity.speaker.dismiss',
          'activity.sponsor.bind',
          'activity.sponsor.dismiss',
          'activity.tag.bind',
          'activity.tag.dismiss',
          'chain.remove',
          'list.person.bind',
          'list.person.dismiss',
        ].sort(),
      );
      const queryOf = (op: AnyOperation): Values =>
        Object.fromEntries(Object.keys(paramsOf(op)).map((n) => [n, ids[n]]));
      const pairs = async (op: AnyOperation) =>
        (
          await p.db
            .selectFrom(pairTable(op.name) as 'activitySpeaker')
            .selectAll()
            .execute()
        ).length;
      for (const bind of RELATION_WRITES.filter((op) => op.name.endsWith('.bind'))) {
        expect(bind.methods).toEqual(['GET', 'POST']);
        const dismiss = operations.find((op) => op.name === bind.name.replace(/bind$/, 'dismiss'))!;
        const before = await pairs(bind);
        await c.ok(bind.name, { token: w.operator, method: 'POST', query: queryOf(bind), body: {} });
        expect(await pairs(bind), bind.name).toBe(before + 1);
        await c.ok(dismiss.name, { token: w.operator, method: 'POST', query: queryOf(dismiss), body: {} });
        expect(await pairs(bind), dismiss.name).toBe(before);
      }
      // chain.remove: tried in sandbox mode, so the chain stays for the other style and store checks.
      await c.ok('chain.remove', { token: w.operator, method: 'POST', query: { chainID: ids.chainID, sandbox: 1 }, body: {} }); // prettier-ignore
      await c.ok('chain.remove', { token: w.operator, method: 'GET', query: { chainID: ids.chainID, sandbox: 1 } });
    });
  });
});
