// Issue 10 defect 2: another tenant's ids cannot be told from ids that do not exist. Every operation
// whose auth rule finds its event through an object the call names (`via`: activityID, chainID, …) is
// called with an object of company A's event by callers with no relation to that event (company B's
// admin, an attendee of B's event, an event-scope token of B's event) and with an id that does not
// exist: each must get the very same answer, `404 <object> not found`, status and line. The table comes
// from the operation table, so an operation added with `via` is checked without touching this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/platform/catalog/index.ts';
import type { AnyOperation, Param } from '../../src/platform/kernel/table.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';

/** The object each id parameter names, in the words of its 404 (a hotsite section is a `section`). */
const NOUN: Record<string, string> = {
  activityID: 'activity',
  chainID: 'chain',
  listID: 'list',
  speakerID: 'speaker',
  sponsorID: 'sponsor',
  tagID: 'tag',
  sectionID: 'section',
  feedbackID: 'feedback',
  eventEmailID: 'eventEmail',
  eventBlacklistID: 'eventBlacklist',
  budgetID: 'budget',
  adID: 'ad',
  eventSanityID: 'eventSanity',
  chatID: 'chat',
  commentID: 'comment',
  beaconEventID: 'beaconEvent',
  beaconActionID: 'beaconAction',
};
/** An id no object has (a valid id: the call reaches the lookup). */
const UNKNOWN = '987654321';

/** Every (operation, object parameter) pair of the table: the parameters of `via` other than eventID. */
const CASES = operations.flatMap((op) =>
  op.auth.kind === 'event' && op.auth.via
    ? op.auth.via.filter((n) => n !== 'eventID').map((param) => ({ name: `${op.name} by ${param}`, op, param }))
    : [],
);

type Values = Record<string, string>;
/** Values of the other parameters: valid, so every call gets past validation to the object's lookup. */
const OTHER: Values = { minutes: '15', subsequent: '0', selection: 'all', value: '1' };
const POOL = ['name', 'approved', 'priori', 'text', '1', 'all', 'Caller', 'message'];

const paramsOf = (op: AnyOperation) => op.params as Record<string, Param>;

/** The call naming `param`: the form (variant) that has it, its required parameters, `value` when declared. */
function callFor(op: AnyOperation, param: string, objects: Values, target: string) {
  const params = paramsOf(op);
  const form = op.variants?.filter((v) => v.includes(param)).sort((a, b) => a.length - b.length)[0] ?? [];
  const names = Object.keys(params).filter((n) => !params[n].optional || form.includes(n) || n === 'value');
  const query: Values = { sandbox: '1' }; // a write that got through would be rolled back
  const body: Values = {};
  for (const n of names) {
    const v =
      n === param
        ? target
        : (objects[n] ?? [OTHER[n], ...POOL].find((x) => x !== undefined && params[n].schema.safeParse(x).success));
    if (v === undefined) throw new Error(`${op.name}: no valid value for ${n}`);
    (params[n].place === 'query' ? query : body)[n] = v;
  }
  const hasBody = Object.keys(body).length > 0;
  return { query, body: hasBody ? body : undefined, method: hasBody ? ('POST' as const) : op.methods[0] };
}

describe.each(STORES)('defect 2, tenancy of object ids, on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let objects: Values; // one object of every kind in company A's event, and an attendee of it
  let callers: Record<string, string>; // tokens with no relation to that event

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    const eventID = Number(w.eventA.eventID);
    const insert = (table: string, values: Record<string, unknown>, key: string) =>
      p.insertRow(table, { eventID, ...values }, key);
    objects = {
      activityID: await insert('activity', { name: 'A talk', dateBegin: 1900000000, dateEnd: 1900003600 }, 'activityID'), // prettier-ignore
      chainID: await insert('chain', { name: 'A chain' }, 'chainID'),
      listID: await insert('list', { name: 'A list' }, 'listID'),
      speakerID: await insert('speaker', { name: 'A speaker' }, 'speakerID'),
      sponsorID: await insert('sponsor', { name: 'A sponsor' }, 'sponsorID'),
      tagID: await insert('tag', { companyID: Number(w.companyA.companyID), name: 'A track', kind: 'activity' }, 'tagID'), // prettier-ignore
      sectionID: await insert('hotsite', { section: 'text', position: 1, name: 'A text' }, 'sectionID'),
      feedbackID: await insert('feedback', { name: 'A field', type: 'text', options: '[]' }, 'feedbackID'),
      eventEmailID: await insert('eventEmail', { subject: 'A mail', text: 'Hi', date: 1 }, 'eventEmailID'),
      eventBlacklistID: await insert('eventBlacklist', { email: 'gone@podium.test', date: 1 }, 'eventBlacklistID'),
      eventSanityID: await insert('eventSanity', { email: 'checked@podium.test', date: 1 }, 'eventSanityID'),
      personID: String(w.attendeeID),
    };
    objects.budgetID = await insert('budget', { title: 'A cost', type: 'raw', price: 1, date: 1 }, 'budgetID');
    objects.adID = await insert('ad', { sponsorID: Number(objects.sponsorID) }, 'adID');
    // A message company A's admin sent (chat.get answers its parties only) and a comment on A's session (issue 16).
    const adminA = (await p.db.selectFrom('person').select('personID').where('username', '=', 'admin-a@podium.test').executeTakeFirstOrThrow()).personID; // prettier-ignore
    objects.chatID = await insert('chat', { senderID: adminA, receiverID: w.attendeeID, message: 'Hi', date: 1 }, 'chatID'); // prettier-ignore
    objects.commentID = await insert('comment', { activityID: Number(objects.activityID), personID: w.attendeeID, text: 'Hi', date: 1 }, 'commentID'); // prettier-ignore
    // A beacon of company A bound to its event, with an action (issue 17).
    const beaconID = await p.insertRow('beacon', { companyID: Number(w.companyA.companyID), uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 1, date: 1 }, 'beaconID'); // prettier-ignore
    objects.beaconEventID = await insert('beaconEvent', { beaconID: Number(beaconID), date: 1 }, 'beaconEventID');
    objects.beaconActionID = await insert('beaconAction', { beaconEventID: Number(objects.beaconEventID), type: 'message', title: 'Hi', message: 'Hi', date: 1 }, 'beaconActionID'); // prettier-ignore
    // People of company B's event: an attendee (system scope) and an admin (event scope).
    const eventB = Number(w.eventB.eventID);
    const passwordHash = await hashPassword(`${PASSWORD} b`);
    for (const [email, level] of [
      ['attendee-b@podium.test', 1],
      ['admin-b1@podium.test', 4],
    ] as const)
      await p.enrol(eventB, await p.person(email, PASSWORD), { level, passwordHash });
    callers = {
      'company B admin': w.adminB,
      'attendee of B1 (system scope)': await p.signIn('attendee-b@podium.test', PASSWORD),
      'admin of B1 (event scope)': await p.signIn('admin-b1@podium.test', `${PASSWORD} b`, eventB),
    };
  }, 120_000);
  afterAll(() => p?.close());

  it('covers every operation that finds its event through an object id', () => {
    expect(CASES.length).toBeGreaterThan(40);
    for (const { param } of CASES) expect(NOUN[param], param).toBeDefined();
  });

  describe.each(STYLES)('%s style', (style) => {
    it.each(CASES)('$name: an unrelated caller is answered as for an unknown id', async ({ op, param }) => {
      const c = client(p, style);
      const answer = async (token: string, target: string) => {
        const r = await c.call(op.name, { token, ...callFor(op, param, objects, target) });
        return `${r.status} ${r.text}`;
      };
      const missing = `404 ${NOUN[param]} not found`;
      const seen: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const [who, token] of Object.entries(callers)) {
        seen[`${who}, A's ${param}`] = await answer(token, objects[param]);
        seen[`${who}, unknown ${param}`] = await answer(token, UNKNOWN);
        expected[`${who}, A's ${param}`] = `404 ${missing}`;
        expected[`${who}, unknown ${param}`] = `404 ${missing}`;
      }
      expect(seen).toEqual(expected);
      // The object exists and the call is well formed: company A's admin gets past the lookup.
      expect(await answer(w.adminA, objects[param])).not.toBe(`404 ${missing}`);
    });
  });
});
