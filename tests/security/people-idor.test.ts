import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/platform/catalog/index.ts';
import type { AnyOperation, Param } from '../../src/platform/kernel/table.ts';
import { PASSWORD, STORES, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import {
  changes,
  send,
  snapshot,
  tenant,
  type EventFixture,
  type Tenant,
  type Values,
  type Victim,
} from './people-world.ts';

// Issue 9 item 2: people isolated per tenant. Every operation of the table × every caller of one
// company (anonymous, company admin and external user, each event level with a system-scope token, the
// attendee and the event admin also with an event-scope token) × that company's events, with
// parameters that name the caller's OWN event and objects but the OTHER company's victim (by personID,
// e-mail, username, …; edit operations over every key). Real writes, so a change would stay. Checked:
//   (a) no answer carries any of the victim's markers (the raw text is searched);
//   (b) the victim's rows as their own company sees them are the same before and after (a change is
//       pinned on the operation and caller after which it was first seen);
//   (c) no answer hands out a token of the victim.
// Every problem is collected, so one run lists every leak. An operation added to the table is swept
// automatically: its parameters come from its declaration.

/** One problem: the call (without its edit key), the key, what happened, and who called from where. */
type Problem = { call: string; key?: string; what: string; caller: string };

/** Parameters that aim at a person: the victim's value(s) for each. */
const PERSON_REFS: Record<string, (v: Victim, e: EventFixture) => string[]> = {
  personID: (v) => [v.personID],
  username: (v) => [v.username, v.email],
  email: (v) => [v.email],
  invite: (v) => [v.email],
  assistantEmail: (v) => [v.email],
  query: (v) => [v.email, v.username],
  content: (v, e) => [JSON.stringify([{ activityID: Number(e.activityID), personID: Number(v.personID) }])],
};
/** Edit keys that aim at a person (speaker.edit personID, …): the value is the victim's. */
const PERSON_KEYS: Record<string, 'personID' | 'email'> = {
  personID: 'personID',
  email: 'email',
  assistantEmail: 'email',
};

/**
 * Optional parameters sent whenever declared: the paths that store a password or hand out a token.
 * Not the password of public operations (form.respondRegistration): every call would pay a scrypt hash
 * for what tests/security/takeover.test.ts proves step by step.
 */
const ALWAYS: Values = { password: 'caller password 1', login: '1' };
const alwaysFor = (op: AnyOperation, name: string) =>
  name in paramsOf(op) &&
  !(name === 'password' && op.auth.kind === 'public' && paramsOf(op).password.optional) &&
  // An operator's only, refused (403) to the sweep's callers before it could reach anyone.
  !(name === 'password' && op.name === 'company.person.bind');

/** A valid value per edit key (else 'Caller value'): what a caller would write over the victim. */
const EDIT_VALUES: Values = {
  name: 'Caller Chosen',
  firstName: 'Caller',
  lastName: 'Chosen',
  email: 'caller-set@caller.test',
  image: 'https://caller.test/image.png',
  socialA: 'https://caller.test/a',
  socialB: 'https://caller.test/b',
  socialC: 'https://caller.test/c',
  socialD: 'https://caller.test/d',
  website: 'https://caller.test/',
  telephone: '+1 555 0100',
  password: 'caller password 1',
  language: 'en',
  private: '1',
  rsvp: '1',
  present: '1',
  level: '1',
  nfc: 'Q0FMTEVS',
  ticketID: '1',
  profileID: '1',
  assistantEmail: 'assistant@caller.test',
  tagIDs: '',
  approved: '1',
  paid: '1',
  priori: '1',
};

/** Values of the parameters that do not aim at a person: the caller's own company, event, objects. */
const BROWSER = {
  p256dh: createECDH('prime256v1').generateKeys('base64url'),
  auth: randomBytes(16).toString('base64url'),
};

function ownValue(name: string, t: Tenant, e: EventFixture): string | undefined {
  const own: Values = {
    eventID: e.eventID,
    companyID: t.companyID,
    namespace: t.namespace,
    nickname: e.nickname,
    activityID: e.activityID,
    chainID: e.chainID,
    listID: e.listID,
    speakerID: e.speakerID,
    sponsorID: e.sponsorID,
    tagID: e.tagID,
    sectionID: e.sectionID,
    feedbackID: e.feedbackID,
    eventEmailID: e.eventEmailID,
    selection: 'all',
    name: 'Caller Name',
    firstName: 'Caller',
    lastName: 'Sent',
    shortName: 'Caller Co',
    feedbackContent: '[]',
    minutes: '15',
    subsequent: '0',
    section: 'text',
    position: '1',
    type: 'text',
    accessCode: '1234',
    path: 'people.csv',
    cname: 'caller.example.com',
    // An item of event.booking.stock (issue 16).
    item: 'beacons',
    // A browser's Web Push subscription (push.bind, push.dismiss): a real P-256 key and auth secret.
    endpoint: 'https://fcm.googleapis.com/fcm/send/caller',
    p256dh: BROWSER.p256dh,
    auth: BROWSER.auth,
    // error.create's raw form (issue 16): a JSON object.
    json: '{"platform":"web","message":"Caller crash"}',
    // event.sendSMS (issue 15): an E.164 number; beacon.create (issue 17): an iBeacon proximity UUID.
    telephone: '+15550100',
    uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e',
    // daemon.bulk (issue 17): people bound to the caller's own activity, one item.
    operation: 'bulk',
    target: 'activity.person.bind',
    resourceType: 'person',
    resources: '1',
    // billing.create (issue 15): a product of the balances.
    product: 'email',
  };
  return own[name];
}
/** Tried, in order, for parameters ownValue does not name; the first value the schema accepts is sent. */
const POOL = ['all', '1', 'raw', 'message', 'Caller', 'caller@caller.test', '0', '[]', 'https://caller.test/x.png', 'text', 'caller password 1', 'C'.repeat(60)]; // prettier-ignore

/** A parameter the sweep has no valid value for: the operation cannot be swept until ownValue knows one. */
class NoValue extends Error {}

const paramsOf = (op: AnyOperation) => op.params as Record<string, Param>;
/** The edit keys an operation lists in its summary ("Keys: a, b."), else those of EDIT_VALUES its schema accepts. */
function keysOf(op: AnyOperation): string[] {
  const listed = [...op.summary.matchAll(/[Kk]eys: ([\w, ]+)\./g)].flatMap((m) => m[1].split(', '));
  const key = paramsOf(op).key;
  return [...new Set(listed.length > 0 ? listed : Object.keys(EDIT_VALUES))].filter(
    (k) => key.schema.safeParse(k).success,
  );
}

/**
 * The calls that aim `op` at the victim from event `e` of tenant `t`: each form (variant) of the
 * operation with its required parameters, and each parameter that names a person set to the victim
 * (one at a time when optional). Edit operations that name a person: every key; others: their keys
 * that name a person, else their first key.
 */
function callsFor(op: AnyOperation, t: Tenant, e: EventFixture, v: Victim): Values[] {
  const params = paramsOf(op);
  const out = new Map<string, Values>();
  const refs = Object.keys(params).filter((n) => n in PERSON_REFS);
  for (const form of op.variants?.length ? op.variants : [[]]) {
    const required = new Set([
      ...Object.entries(params)
        .filter(([, x]) => !x.optional)
        .map(([n]) => n),
      ...form,
    ]);
    const base: Values = {};
    for (const name of required) {
      if (name in PERSON_REFS || name === 'key' || name === 'value') continue;
      const candidates = [ownValue(name, t, e), ...POOL].filter((x): x is string => x !== undefined);
      const valid = candidates.find((x) => params[name].schema.safeParse(x).success);
      if (valid === undefined) throw new NoValue(`no valid value for ${name}: add one to ownValue`);
      base[name] = valid;
    }
    for (const [name, value] of Object.entries(ALWAYS)) if (alwaysFor(op, name)) base[name] = value;
    // Person parameters: the required ones always, each optional one in a call of its own.
    // Person parameters: the required ones always; each optional one in a call of its own, and the call
    // without them (a list of the caller's own event shows whoever is in it). Not for edits: an edit
    // that names nobody is of the caller's own record (event.person.operate key=level would demote them).
    const requiredRefs = refs.filter((n) => required.has(n));
    let aims: Values[] = [{}];
    for (const name of requiredRefs)
      aims = aims.flatMap((a) => PERSON_REFS[name](v, e).map((x) => ({ ...a, [name]: x })));
    const optional = refs.filter((n) => !required.has(n));
    // The most specific first: a looser call may create a homonym that a later one would find instead.
    aims = [
      ...aims.flatMap((a) => optional.flatMap((n) => PERSON_REFS[n](v, e).map((x) => ({ ...a, [n]: x })))),
      ...(requiredRefs.length > 0 || optional.length === 0 || !('key' in params) ? aims : []),
    ];
    for (const aim of aims) {
      const values = { ...base, ...aim };
      // A search needs the field it searches.
      if ('query' in aim && 'queryKey' in params)
        values.queryKey = ['email', 'username', 'name'].find((k) => params.queryKey.schema.safeParse(k).success)!;
      if (!('key' in params)) {
        out.set(JSON.stringify(values), values);
        continue;
      }
      const keys = keysOf(op);
      const aimed = refs.length > 0;
      const personKeys = keys.filter((k) => k in PERSON_KEYS);
      for (const key of aimed ? keys : personKeys.length > 0 ? personKeys : keys.slice(0, 1)) {
        const value = key in PERSON_KEYS && !aimed ? v[PERSON_KEYS[key]] : (EDIT_VALUES[key] ?? 'Caller value');
        const call = { ...values, key, ...('value' in params ? { value } : {}) };
        out.set(JSON.stringify(call), call);
      }
    }
  }
  return [...out.values()];
}

/**
 * Operations that aim at a person yet never get past their own checks for a caller who is not that
 * person: signing in needs the victim's password; person.edit edits the caller's own identity, and
 * setting its e-mail to the victim's is refused. Every other operation that names a person must get
 * through to its handler for some caller, or the sweep would prove nothing about it (a renamed
 * parameter, a value no schema accepts). event.email.unsubscribe needs the signature of the link in the
 * victim's own mailbox (tests/api/mail-bulk.test.ts shows a forged one refused), and event.email.bounce
 * the platform's BOUNCE_SECRET (tests/api/mail-bounce.test.ts). The applicant and guest operations find
 * a person through their application or guest row in the caller's event, which a person of another
 * company never has: every call is 404 (403 where the event takes no guests) before any row of theirs is
 * read (tests/api/applicants.test.ts and guests.test.ts sweep their own IDOR matrix). event.sender.refresh
 * checks a sender that exists; none is made for the victim (event.sender.edit refuses them).
 * beacon.log.bind names a person of the caller's event who met one of its beacon actions: the victim is
 * in none of the caller's events (404 to an admin, 403 to an attendee; tests/api/beacons.test.ts).
 */
const NEVER_THROUGH = new Set([
  'person.signIn',
  'person.edit',
  'event.email.unsubscribe',
  'event.email.bounce',
  'event.applicant.operate',
  'event.applicant.dismiss',
  'event.applicant.get',
  'event.applicant.approve',
  'event.guest.bind',
  'event.guest.operate',
  'event.guest.dismiss',
  'event.guest.get',
  'event.sender.refresh',
  'beacon.log.bind',
]);
/** Answers that only a handler that ran gives: success, a conflict, its own throttle (the global limits are off). */
const THROUGH = new Set([200, 409, 429]);
const aimsAtPeople = (op: AnyOperation) =>
  Object.keys(paramsOf(op)).some((n) => n in PERSON_REFS) ||
  ('key' in paramsOf(op) && keysOf(op).some((k) => k in PERSON_KEYS));

/**
 * `*.remove` deletes the caller's own object that the rest of the sweep aims from, and person.signOut
 * ends the caller's own token that it sweeps with: rolled back.
 */
const rolledBack = (op: AnyOperation) => op.name.endsWith('.remove') || op.name === 'person.signOut';

/** The call in one line: the parameters that aimed at the victim by what they named, the others by name. */
function describeCall(op: AnyOperation, method: string, values: Values, v: Victim): string {
  const shown = Object.entries(values)
    .filter(([k]) => k !== 'key')
    .map(([k, x]) => {
      const ref = (['personID', 'username', 'email'] as const).find(
        (f) => x === v[f] || (k === 'content' && x.includes(`"personID":${v.personID}`)),
      );
      return ref ? `${k}=${v.label}.${ref}` : k;
    });
  return `${op.name} ${method} [${shown.join(' ')}]`;
}

/** A marker as the field it came from: B-ONLY-person_role-7f3 → person.role. */
const fieldOf = (marker: string) =>
  marker
    .replace(/^[AB]-ONLY-/i, '')
    .replace(/-7f3$/, '')
    .replace('_', '.');

/** Problems grouped by call and outcome, with the keys and callers it happened to: one line each. */
function report(problems: Problem[]): string[] {
  const groups = new Map<string, { keys: Set<string>; callers: Set<string> }>();
  for (const x of problems) {
    const k = `${x.call} → ${x.what}`;
    const g = groups.get(k) ?? { keys: new Set(), callers: new Set() };
    if (x.key) g.keys.add(x.key);
    g.callers.add(x.caller);
    groups.set(k, g);
  }
  return [...groups].map(([k, g]) => {
    const keys = g.keys.size > 0 ? ` (key ${[...g.keys].join('|')})` : '';
    return `${k}${keys}  by ${[...g.callers].join(', ')}`;
  });
}

/** callsFor, with a parameter it cannot fill listed as a problem (and the operation left out) rather than thrown. */
function planned(op: AnyOperation, t: Tenant, e: EventFixture, v: Victim, problems: Problem[]): Values[] {
  try {
    return callsFor(op, t, e, v);
  } catch (err) {
    if (!(err instanceof NoValue)) throw err;
    problems.push({ call: op.name, caller: 'the sweep itself', what: `not swept: ${err.message}` });
    return [];
  }
}

/** Sweeps every operation for every caller of `attackers`, aimed at each victim of `victims`. */
async function sweep(p: TestPlatform, attackers: Tenant, victims: Tenant) {
  const problems: Problem[] = [];
  const all = async () => Promise.all(victims.victims.map((v) => snapshot(p, victims, v)));
  const before = await all();
  let last = before;
  let calls = 0;
  const through = new Set<string>();
  for (const caller of attackers.callers)
    for (const e of caller.events)
      for (const op of operations) {
        for (const v of victims.victims)
          for (const values of planned(op, attackers, e, v, problems))
            for (const method of op.methods) {
              const query: Values = rolledBack(op) ? { sandbox: '1' } : {};
              const body: Values = {};
              for (const [k, x] of Object.entries(values)) (paramsOf(op)[k].place === 'body' ? body : query)[k] = x;
              const res = await send(p, { name: op.name, method, query, body: method === 'POST' ? body : undefined, token: caller.token }); // prettier-ignore
              calls++;
              if (THROUGH.has(res.status)) through.add(op.name);
              const at = { call: describeCall(op, method, values, v), key: values.key, caller: `${caller.label} in ${e.label}` }; // prettier-ignore
              const leaked = [...new Set((res.text.match(v.marker) ?? []).map(fieldOf))].sort();
              if (leaked.length > 0) problems.push({ ...at, what: `${res.status} shows ${leaked.join(', ')}` });
              if (res.status >= 500) problems.push({ ...at, what: res.text.slice(0, 100) });
              if (res.status === 200 && res.text.startsWith('{')) {
                const rows = (JSON.parse(res.text) as { data: Record<string, unknown>[] }).data;
                const victim = (r: Record<string, unknown>) => victims.victims.find((x) => x.personID === r.personID);
                for (const r of rows)
                  if (victim(r) && typeof r.tokenID === 'string' && r.tokenID !== '')
                    problems.push({ ...at, what: `hands out a token of ${victim(r)!.label}` });
              }
            }
        // After each write operation of each caller, a change to a victim's rows is pinned on it (a read
        // that changed one would be pinned on the next write, and the total below catches it anyway).
        if (!op.writes) continue;
        const now = await all();
        victims.victims.forEach((v, i) => {
          for (const c of changes(last[i], now[i]))
            problems.push({ call: `${op.name} (its calls above)`, caller: `${caller.label} in ${e.label}`, what: `changed ${v.label}'s ${c}` }); // prettier-ignore
        });
        last = now;
      }
  for (const op of operations)
    if (aimsAtPeople(op) && !NEVER_THROUGH.has(op.name) && !through.has(op.name))
      problems.push({ call: op.name, caller: 'every caller', what: 'never got through to its handler: not swept' }); // prettier-ignore
  const after = await all();
  return { problems, calls, total: victims.victims.flatMap((v, i) => changes(before[i], after[i]).map((c) => `${v.label}'s ${c}`)) }; // prettier-ignore
}

describe.each(STORES)('people isolation between tenants on %s', (kind) => {
  let p: TestPlatform;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    await p.person('operator@podium.test', PASSWORD, true);
    const operator = (
      await p.ok('person.signIn', { query: { username: 'operator@podium.test' }, body: { password: PASSWORD } })
    )[0].tokenID;
    a = await tenant(p, operator, 'A');
    b = await tenant(p, operator, 'B');
  }, 120_000);
  afterAll(() => p?.close());

  it("event.get with personID of another company's admin shows no level, role or company of theirs (before the sweeps enrol them anywhere)", async () => {
    for (const [own, other] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const v of other.victims) {
        const res = await send(p, {
          name: 'event.get',
          method: 'GET',
          token: own.admin,
          query: { eventID: own.events[0].eventID, personID: v.personID },
        });
        if (res.status === 404) continue; // not an attendee of this event: nothing to show
        expect(res.status, res.text).toBe(200);
        const [row] = (JSON.parse(res.text) as { data: Record<string, string>[] }).data;
        const whose = `${other.letter}'s admin ${v.label} in ${own.letter}'s event`;
        for (const field of ['systemLevel', 'companyLevel', 'level'])
          expect.soft(['0', ''], `${field} of ${whose}`).toContain(row[field]);
        for (const field of ['role', 'company']) expect.soft(row[field], `${field} of ${whose}`).toBe('');
      }
    }
  });

  it('control: the victims own company sees their markers, so a leak would be found', async () => {
    for (const t of [a, b]) {
      const find = await send(p, {
        name: 'event.person.find',
        method: 'GET',
        token: t.admin,
        query: { eventID: t.events[0].eventID, selection: 'all' },
      });
      const people = await send(p, {
        name: 'company.person.find',
        method: 'GET',
        token: t.admin,
        query: { companyID: t.companyID, selection: 'all' },
      });
      const marker = t.victims[0].marker;
      expect(find.text.match(marker)?.length ?? 0, find.text.slice(0, 200)).toBeGreaterThan(0);
      expect(people.text.match(marker)?.length ?? 0, people.text.slice(0, 200)).toBeGreaterThan(0);
    }
  });

  // Both directions: A's callers aimed at B's victim, then B's at A's.
  for (const [from, to] of [
    ['A', 'B'],
    ['B', 'A'],
  ] as const)
    it(`${from}'s callers see and change nothing of ${to}'s person, through any operation`, async () => {
      const [attackers, victims] = from === 'A' ? [a, b] : [b, a];
      const started = performance.now();
      const { problems, calls, total } = await sweep(p, attackers, victims);
      console.log(`${kind} ${from}→${to}: ${calls} calls in ${Math.round(performance.now() - started)} ms`);
      const lines = report(problems);
      expect(lines.length, `${lines.length} problem(s):\n${lines.join('\n')}\n`).toBe(0);
      expect(total, "the victim's rows in their own company changed").toEqual([]);
    }, 300_000);
});
