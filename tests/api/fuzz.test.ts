import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/platform/catalog/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { paramJsonSchema } from '../../src/platform/kernel/describe.ts';
import { createConfirmation } from '../../src/platform/resources/person/identity.ts';
import { issueLink } from '../../src/platform/resources/person/magic.ts';
import { openLink, unsubscribeLink } from '../../src/platform/resources/email/unsubscribe.ts';
import { toXlsx } from '../../src/platform/excel.ts';
import type { AnyOperation, Param } from '../../src/platform/kernel/table.ts';
import {
  PASSWORD,
  STORES,
  answerText,
  isStream,
  checkAnswer,
  startTestPlatform,
  TEST_BOUNCE_SECRET,
  world,
  type TestPlatform,
  type World,
} from '../helpers/platform.ts';
import { startFakeCrm, type FakeCrm } from '../helpers/crm.ts';
import { until } from '../helpers/processes.ts';

// Requests generated from the operation table itself: for every operation, both call styles and every
// declared method, (a) no parameters, (b) each declared parameter with hostile values, (c) random
// valid-looking combinations from a seeded PRNG. Every answer must pass the harness's envelope /
// error-line check, never be a 500 and never hang. Writes run with sandbox=1.
// About 2,350 requests per store, about 6 s each.

const STYLES = ['rpc', 'rest'] as const;
type Style = (typeof STYLES)[number];
type Values = Record<string, string | string[]>;

/** What any answer may be; 500 (or anything else) never. */
const ALLOWED = new Set([200, 400, 401, 403, 404, 405, 409, 413, 415, 429]);
const FORM = 'application/x-www-form-urlencoded';
/** Per request: a call that takes longer has hung. */
const HANG_MS = 10_000;
const ACCESS_CODE = '4321';
const BODY_LIMIT = loadConfig({}).BODY_LIMIT;
/**
 * Node refuses request heads over 16 KB (431) before the app sees them, so "very long" is 12 KB in
 * the query string (still far above every max() of a query parameter) and 100 KB in the body. The
 * 100 KB query string has its own test at the end.
 */
const LONG_QUERY = 'q'.repeat(12_000);
const LONG_BODY = 'b'.repeat(100_000);

interface Hostile {
  readonly label: string;
  readonly value: (place: Param['place']) => string | string[];
}
const HOSTILE: readonly Hostile[] = [
  { label: 'empty', value: () => '' },
  { label: 'very long', value: (place) => (place === 'query' ? LONG_QUERY : LONG_BODY) },
  { label: 'sql', value: () => "'; drop table event; --" },
  { label: 'path', value: () => '../../etc/passwd' },
  { label: '"%00" text', value: () => '%00' },
  { label: 'NUL byte', value: () => 'a\u0000b' },
  { label: 'unicode', value: () => 'Ünïcødé 名前 🎉 \u202e\u0301 \ud800 ﷽' },
  { label: 'html', value: () => '<script>alert(1)</script><img src=x onerror=alert(1)>' },
  { label: '-1', value: () => '-1' },
  { label: 'int32+1', value: () => '2147483648' },
  { label: 'beyond 2^53', value: () => '9007199254740993' },
  { label: '1e309', value: () => '1e309' },
  { label: 'repeated key', value: () => ['1', '2'] },
];

/** Hostile values that only mean something for one parameter name, tried on top of HOSTILE. */
const HOSTILE_BY_NAME: Record<string, readonly string[]> = {
  selection: ['all|tags:2147483648', 'tags:9007199254740993', 'tags:', 'tags:1,,2', 'all||all', 'all|ALL'],
  key: ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'eventID', 'companyID', 'onboardingTokenHash'],
  order: ['__proto__', 'eventID; drop table event', 'name desc'],
  queryKey: ['__proto__', 'constructor'],
  value: ['2147483648', '-2147483649', '99999999999999999999', '1.5', '#zzz', 'javascript:alert(1)', 'http://'],
  namespace: ['ALPHA-EVENTS', ' alpha-events', 'alpha_events'],
  cname: ['localhost', 'a..b.com', 'xn--80ak6aa92e.com', `${'a'.repeat(64)}.com`, '_podium.example.com'],
  accessCode: ['0', '00000', '12345', '+1'],
  email: ['a@b', 'a@b.c@d.e', '"a b"@c.de'],
  path: ['/etc/passwd', '.', 'x/../../../etc/passwd', '..\\..\\windows\\win.ini'],
};

/** Deterministic PRNG (mulberry32), so every run sends the same requests. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}

/** A stable seed per operation name, so adding an operation does not change the others' requests. */
const seedOf = (s: string) => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);

interface Req {
  name: string;
  style: Style;
  method: string;
  query?: Values;
  body?: Values | string;
  token?: string;
  contentType?: string;
}
interface Res {
  status: number;
  text: string;
  headers: Headers;
}

/** A request in one line, each value cut short, for failure lists. */
function describeReq(r: Req): string {
  const cut = (v: string | string[]) => {
    const s = JSON.stringify(v);
    return s.length > 40 ? `${s.slice(0, 30)}…(${s.length})` : s;
  };
  const list = (v: Values | string | undefined) =>
    typeof v === 'string'
      ? cut(v)
      : Object.entries(v ?? {})
          .map(([k, x]) => `${k}=${cut(x)}`)
          .join(' ');
  return `${r.method} ${r.style} ${r.name} [${list(r.query)}] body[${list(r.body)}]${r.token ? ' +token' : ''}`;
}

function form(values: Values): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const x of [v].flat()) out.append(k, x);
  return out;
}

/**
 * Like p.call (same checkAnswer), plus what p.call cannot send: repeated keys, any method and
 * content type; and a deadline, so a hang is a failure rather than a stuck suite.
 */
async function send(p: TestPlatform, r: Req): Promise<Res> {
  const query = form(r.query ?? {});
  if (r.token) query.set('tokenID', r.token);
  if (r.style === 'rpc') query.set('action', r.name);
  const path = r.style === 'rest' ? `/${r.name.replaceAll('.', '/')}` : '/';
  const body = typeof r.body === 'string' ? r.body : r.body ? form(r.body).toString() : undefined;
  let res: Response;
  try {
    res = await fetch(`${p.url}${path}?${query}`, {
      method: r.method,
      headers: body !== undefined ? { 'content-type': r.contentType ?? FORM } : {},
      body,
      signal: AbortSignal.timeout(HANG_MS),
    });
  } catch (err) {
    throw new Error(`${describeReq(r)}: no answer (${(err as Error).name}: ${(err as Error).message})`, {
      cause: err,
    });
  }
  const text = await answerText(res);
  if (isStream(res)) return { status: res.status, text, headers: res.headers };
  try {
    checkAnswer(res.status, res.headers.get('content-type') ?? '', text);
  } catch (err) {
    throw new Error(`${describeReq(r)} → ${res.status} ${text.slice(0, 120)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return { status: res.status, text, headers: res.headers };
}

/** Sends and records any answer outside ALLOWED (or not `expected`, when given) instead of stopping. */
async function probe(p: TestPlatform, r: Req, problems: string[], expected?: number): Promise<Res> {
  const res = await send(p, r);
  const bad = expected !== undefined ? res.status !== expected : !ALLOWED.has(res.status);
  if (bad) problems.push(`${describeReq(r)} → ${res.text.slice(0, 100)}${expected ? ` (expected ${expected})` : ''}`);
  return res;
}

const methodsOf = (op: AnyOperation) => op.methods as readonly string[];
const paramsOf = (op: AnyOperation) => Object.entries(op.params as Record<string, Param>);
/** The required set of the base call: the declared required parameters plus the first variant. */
/**
 * Whether a call without `name` (the other values as given) is still a complete form of the operation:
 * then a parameter of one variant may be left out, and the call is another form, not a 400.
 */
const otherFormWithout = (op: AnyOperation, name: string, values: Values) =>
  (op.variants ?? []).some((v: readonly string[]) => !v.includes(name) && v.every((n) => n in values && n !== name));
const requiredOf = (op: AnyOperation) =>
  new Set([
    ...paramsOf(op)
      .filter(([, p]) => !p.optional)
      .map(([n]) => n),
    ...(op.variants?.[0] ?? []),
  ]);

/** The edit keys an edit-style operation lists in its summary ("Keys: a, b." / "Admin keys: …"). */
const keysOf = (op: AnyOperation) =>
  [...op.summary.matchAll(/[Kk]eys: ([\w, ]+)\./g)].flatMap((m) => m[1].split(', ').map((k) => k.trim()));

/** Parameters whose meaning depends on another: fuzzing the first cycles the second through its valid values. */
const COMPANION: Record<string, string> = { value: 'key', query: 'queryKey' };

/** Splits values into query and body by each parameter's declared place; extras go to the query. */
function place(op: AnyOperation, values: Values): { query: Values; body: Values } {
  const query: Values = {};
  const body: Values = {};
  for (const [k, v] of Object.entries(values))
    ((op.params as Record<string, Param>)[k]?.place === 'body' ? body : query)[k] = v;
  if (op.writes || op.name === 'person.signIn') query.sandbox = '1';
  return { query, body };
}

/** The request for `values` in one style and method (GET cannot carry a body: body values are dropped). */
function request(op: AnyOperation, values: Values, style: Style, method: string, token?: string): Req {
  const { query, body } = place(op, values);
  return { name: op.name, style, method, query, body: method === 'POST' ? body : undefined, token };
}

describe.each(STORES)('fuzz on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  /** Candidates per parameter name, best first; the schema decides which are valid. */
  let named: Record<string, string[]>;
  /** Values tried for every parameter in the random combinations. */
  let pool: string[];
  /** Company A's external user: the person company.person.operate / dismiss act on. */
  let externalID: string;
  /** The tagID of company A's event tag, for the operations that take only event tags. */
  let eventTagPairs: Values;
  /** A coupon of event A (coupon.get reads it). */
  let couponCode: string;
  /** A pending applicant of event A, and a guest of its attendee (issue 16). */
  let applicantID: string;
  let guestID: string;
  /** The url key of a ready report of company A (download.file). */
  const downloadKey = 'fuzzReportKey_0123456-';
  /** A booking of event A (event.booking.get / use read it by its value; issue 16). */
  let bookingValue: string;
  /** The one-click unsubscribe signature of fuzz@podium.test in event A (event.email.unsubscribe). */
  let unsubscribeSig = '';
  /** A sent message of an e-mail with tracking on: its pixel's signature (event.email.open), its Message-ID (event.email.bounce). */
  let openSig = '';
  let emailLogID = '';
  /** A fake CRM provider on loopback (issue 17): event A is linked to it, so crmfeed.* reach the provider. */
  let crm: FakeCrm;
  /** A live event magic link code of event A's attendee (person.signInLink; sandbox=1 rolls its spending back). */
  let linkCode = '';
  /** A token of the operator's that person.signOut may end (its calls without sandbox=1 are real). */
  let spareToken = '';

  beforeAll(async () => {
    crm = await startFakeCrm();
    p = await startTestPlatform(kind, { CRM_URL: crm.url });
    w = await world(p);
    crm.tokens.add('fuzz-crm-token');
    crm.communities = [{ id: 'c1', name: 'Fuzz community', url: 'https://crm.test/c/1' }];
    crm.groups = { '': [{ id: 'g1', name: 'Fuzz group' }] };
    await p.ok('crmfeed.link', { token: w.adminA, query: { eventID: w.eventA.eventID }, body: { token: 'fuzz-crm-token' } }); // prettier-ignore
    await send(p, {
      name: 'event.edit',
      style: 'rpc',
      method: 'POST',
      token: w.operator,
      query: { eventID: w.eventA.eventID, key: 'accessCode' },
      body: { value: ACCESS_CODE },
    });
    const people = await p.ok('company.person.find', {
      token: w.operator,
      query: { companyID: w.companyA.companyID, selection: 'all' },
    });
    externalID = people.find((r) => r.email === 'external-a@podium.test')!.personID;
    const { companyA, companyB, eventA, eventB } = w;
    // Content of event A for the content operations (issue 3), straight in the store.
    const eventID = Number(eventA.eventID);
    const one = (table: string, values: Record<string, unknown>, key: string) => p.insertRow(table, values, key);
    const activityID = await one('activity', { eventID, name: 'Fuzz talk', dateBegin: 1700000000, dateEnd: 1700003600 }, 'activityID'); // prettier-ignore
    const chainID = await one('chain', { eventID, name: 'Fuzz chain' }, 'chainID');
    const listID = await one('list', { eventID, name: 'Fuzz list' }, 'listID');
    const speakerID = await one('speaker', { eventID, name: 'Fuzz speaker' }, 'speakerID');
    const sponsorID = await one('sponsor', { eventID, name: 'Fuzz sponsor' }, 'sponsorID');
    const tagID = await one('tag', { eventID, companyID: Number(companyA.companyID), name: 'Fuzz track', kind: 'activity' }, 'tagID'); // prettier-ignore
    // A company event tag (company.tag.*, event.tag.*): the company's, no eventID.
    const eventTagID = await one('tag', { companyID: Number(companyA.companyID), name: 'Fuzz event tag', kind: 'event' }, 'tagID'); // prettier-ignore
    eventTagPairs = { tagID: eventTagID };
    const sectionID = await one('hotsite', { eventID, section: 'text', position: 1, name: 'Fuzz' }, 'sectionID');
    const feedbackID = await one('feedback', { eventID, name: 'Fuzz field', type: 'text', options: '[]', apiKey: 'fuzz' }, 'feedbackID'); // prettier-ignore
    await p.db.insertInto('eventInvite').values({ eventID, email: 'fuzz@podium.test' }).execute();
    const eventEmailID = await one('eventEmail', { eventID, subject: 'Fuzz', text: 'Hi', date: 1 }, 'eventEmailID');
    const eventBlacklistID = await one('eventBlacklist', { eventID, email: 'gone@podium.test', date: 1 }, 'eventBlacklistID'); // prettier-ignore
    const link = await unsubscribeLink(p.db, 'http://x', eventID, 'fuzz@podium.test');
    unsubscribeSig = new URL(link).searchParams.get('sig')!;
    // Messaging (issue 15): a tracked message, a sender with an address, a checked address.
    const trackedID = await one('eventEmail', { eventID, subject: 'Tracked', text: 'Hi', tracking: 1, date: 1 }, 'eventEmailID'); // prettier-ignore
    emailLogID = await one('emailLog', { eventID, eventEmailID: Number(trackedID), kind: 'custom', idem: 'fuzz', to: 'fuzz@podium.test', status: 'sent', date: 1, updatedDate: 1 }, 'emailLogID'); // prettier-ignore
    await p.db.updateTable('emailLog').set({ messageID: `<log-${emailLogID}@podium.test>` }).where('emailLogID', '=', Number(emailLogID)).execute(); // prettier-ignore
    openSig = new URL(await openLink(p.db, 'http://x', Number(emailLogID))).searchParams.get('sig')!;
    await one('eventSender', { eventID, personID: w.attendeeID, senderEmail: 'fuzz@podium.test', date: 1 }, 'senderID');
    const eventSanityID = await one('eventSanity', { eventID, email: 'fuzz@podium.test', date: 1 }, 'eventSanityID');
    // A live person.recover code: writes run with sandbox=1, so spending it is rolled back every time.
    const code = await createConfirmation(p.db, w.attendeeID, 'password', Math.floor(Date.now() / 1000));
    spareToken = await p.signIn('operator@podium.test', PASSWORD);
    linkCode = (await issueLink(p.db, eventID, w.attendeeID, Math.floor(Date.now() / 1000), 3600))!;
    await p.db.insertInto('activityPerson').values({ activityID: Number(activityID), eventID, personID: w.attendeeID, approved: 1 }).execute(); // prettier-ignore
    await p.db
      .insertInto('listPerson')
      .values({ listID: Number(listID), personID: w.attendeeID })
      .execute();
    // A webhook of company A with one delivery (issue 14), for the webhook operations. Its ping is made
    // while it is off (nothing is sent), and settled by the worker before it is turned on again:
    // webhook.delivery.retry takes settled deliveries of a webhook that is on. On, it hears only a type
    // no call here makes (writes run with sandbox=1 and record no change anyway).
    const [hook] = await p.ok('webhook.create', {
      token: w.adminA,
      query: { companyID: companyA.companyID },
      body: { url: 'https://example.invalid/hook', types: 'sender.check' },
    });
    const active = (value: number) =>
      p.ok('webhook.edit', { token: w.adminA, query: { webhookID: hook.webhookID, key: 'active' }, body: { value } });
    await active(0);
    const [ping] = await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
    const settledPing = () =>
      p.db.selectFrom('webhookDelivery').select('state').where('deliveryID', '=', Number(ping.deliveryID)).executeTakeFirstOrThrow(); // prettier-ignore
    await until(async () => (await settledPing()).state !== 'pending', 'the ping settled by the worker');
    expect((await settledPing()).state).toBe('failed');
    await active(1);
    // A coupon of event A (issue 16), for coupon.get.
    // An expense and an ad of event A (issue 17), for the budget and ad operations.
    const budgetID = await one('budget', { eventID, title: 'Fuzz', type: 'raw', price: 100, date: 1 }, 'budgetID');
    await one('budgetLog', { eventID, budgetID: Number(budgetID), personID: w.attendeeID, key: 'create', date: 1 }, 'budgetLogID'); // prettier-ignore
    const adID = await one('ad', { eventID, sponsorID: Number(sponsorID) }, 'adID');
    await one('caseStudy', { eventID, date: 1, active: 1 }, 'caseID'); // case.get reads it
    // A beacon of company A bound to event A with an action (issue 17), for the beacon operations.
    const beaconID = await one('beacon', { companyID: Number(companyA.companyID), uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 7, date: 1 }, 'beaconID'); // prettier-ignore
    const beaconEventID = await one('beaconEvent', { eventID, beaconID: Number(beaconID), date: 1 }, 'beaconEventID');
    const beaconActionID = await one('beaconAction', { eventID, beaconEventID: Number(beaconEventID), type: 'message', title: 'Fuzz', message: 'Fuzz', date: 1 }, 'beaconActionID'); // prettier-ignore
    couponCode = (await p.ok('coupon.create', { token: w.adminA, query: { eventID: eventA.eventID }, body: { discount: 10 } }))[0].code; // prettier-ignore
    // Issue 16: an application to event A (event.applicant.*), and a guest of its attendee in an event
    // taking guests (event.guest.*).
    applicantID = String(await p.person('applicant@podium.test', PASSWORD));
    await p.db.insertInto('eventApplicant').values({ eventID, personID: Number(applicantID), username: 'applicant@podium.test', email: 'applicant@podium.test', name: 'Applicant', dateCreated: 1 }).execute(); // prettier-ignore
    await p.db.updateTable('event').set({ guestsForMember: 5 }).where('eventID', '=', eventID).execute();
    guestID = await one('eventGuest', { eventID, hostID: w.attendeeID, name: 'Fuzz guest', dateCreated: 1 }, 'eventGuestID'); // prettier-ignore
    bookingValue = (await p.ok('event.booking.create', { token: w.adminA, query: { eventID }, body: { name: 'Fuzz', email: 'booking@podium.test', telephone: '1', company: 'Fuzz', dataCollectors: 1, liveSupport: 0, extraPhone: 0, extraLive: 0, automaticReport: 0, beacons: 0, pricing: 'fuzz' } }))[0].value; // prettier-ignore
    // A chat message the operator sent, a comment and an error report of event A (issue 16): chat.get
    // answers only the message's sender and receiver.
    const operatorID = (await p.db.selectFrom('person').select('personID').where('username', '=', 'operator@podium.test').executeTakeFirstOrThrow()).personID; // prettier-ignore
    const chatID = await one('chat', { eventID, senderID: operatorID, receiverID: w.attendeeID, message: 'Fuzz', date: 1 }, 'chatID'); // prettier-ignore
    const commentID = await one('comment', { eventID, activityID: Number(activityID), personID: w.attendeeID, text: 'Fuzz #tag', date: 1 }, 'commentID'); // prettier-ignore
    const errorID = await one('errorReport', { platform: 'fuzz', message: 'Fuzz', date: 1, eventID, companyID: Number(companyA.companyID) }, 'errorID'); // prettier-ignore
    // A ready report of company A (issue 17), for download.remove and download.file.
    const downloadID = await one(
      'download',
      {
        companyID: Number(companyA.companyID),
        eventID,
        personID: w.attendeeID,
        scope: 'system',
        title: 'Fuzz report',
        type: 'event.person.find',
        params: JSON.stringify({ eventID: String(eventID), selection: 'all' }),
        secret: downloadKey,
        state: 'ready',
        date: 1,
        expires: 4_102_444_800,
      },
      'downloadID',
    );
    await p.db
      .insertInto('downloadChunk')
      .values({ downloadID: Number(downloadID), attempt: 0, seq: 0, data: toXlsx([{ fuzz: '=1' }]) })
      .execute();
    // A browser's Web Push subscription bound to the event (issue 13), for push.bind and push.dismiss.
    const browserKey = createECDH('prime256v1');
    browserKey.generateKeys();
    const subscription = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/fuzz',
      p256dh: browserKey.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    };
    await p.ok('push.bind', { query: { eventID }, body: { ...subscription, activityIDs: activityID } });
    named = {
      endpoint: [subscription.endpoint, 'https://evil.example/push'],
      p256dh: [subscription.p256dh],
      auth: [subscription.auth],
      webhookID: [hook.webhookID, '999999'],
      chatID: [chatID, '999999'],
      commentID: [commentID, '999999'],
      errorID: [errorID, '999999'],
      deliveryID: [ping.deliveryID, '999999'],
      url: ['https://example.com/hook', 'http://example.com/hook'],
      types: ['activity.edit,event.person.bind', ''],
      after: ['0', '1'],
      activityID: [activityID, '999999'],
      chainID: [chainID, '999999'],
      listID: [listID, '999999'],
      speakerID: [speakerID, '999999'],
      sponsorID: [sponsorID, '999999'],
      tagID: [tagID, '999999'],
      sectionID: [sectionID, '999999'],
      feedbackID: [feedbackID, '999999'],
      eventEmailID: [eventEmailID, '999999'],
      source: [eventEmailID, '999999'],
      eventBlacklistID: [eventBlacklistID, '999999'],
      budgetID: [budgetID, '999999'],
      adID: [adID, '999999'],
      beaconID: [beaconID, '999999'],
      beaconEventID: [beaconEventID, '999999'],
      beaconActionID: [beaconActionID, '999999'],
      uuid: ['F7826DA6-4FA2-4E98-8024-BC5B71E0893F', 'not-a-uuid'],
      communityId: ['c1'],
      communityUrl: ['https://crm.test/c/1', 'javascript:alert(1)'],
      communityName: ['Fuzz community'],
      groupId: ['g1'],
      groupName: ['Fuzz group'],
      token: ['fuzz-crm-token', 'two words'],
      major: ['1', '65536'],
      minor: ['7', '65536'],
      price: ['12.50', '-1', '1e3'],
      eventSanityID: [eventSanityID, '999999'],
      emailLogID: [emailLogID, '999999'],
      telephone: ['+351912345678', '912345678'],
      downloadID: [downloadID, '999999'],
      // daemon.bulk / daemon.find (issue 17): a target of the table, its items, the daemon operation.
      target: ['activity.person.bind', 'all', 'event.remove'],
      targetID: [activityID, '999999'],
      resourceType: ['person', 'tag'],
      resources: [`${w.attendeeID},999999`, '[{"name":"x"}]', '[[[[1]]]]'],
      extra: ['{"bypassWebhook":"1"}', '[]'],
      operation: ['bulk', 'report'],
      code: [code, 'x'.repeat(60)],
      currentPassword: [PASSWORD],
      minutes: ['15', '-15'],
      subsequent: ['0', '1'],
      section: ['text', 'faq'],
      position: ['1'],
      type: ['text', 'select'],
      firstName: ['Fuzz'],
      lastName: ['Tester'],
      feedbackContent: ['[]', '{"fuzz":"x"}'],
      content: [`[{"activityID":${activityID},"personID":${w.attendeeID}}]`],
      invite: ['fuzz@podium.test'],
      companyID: [companyA.companyID, companyB.companyID, '999999'],
      eventID: [eventA.eventID, eventB.eventID, '999999'],
      personID: [String(w.attendeeID), externalID, '999999'],
      siblingID: [eventA.eventID],
      templateID: [eventA.eventID],
      username: ['attendee@podium.test', 'nobody@podium.test'],
      password: [PASSWORD, `${PASSWORD} event`, 'wrong password'],
      namespace: [companyA.namespace, companyB.namespace, 'no-such-company'],
      nickname: ['fuzz', eventA.nickname, eventB.nickname],
      cname: ['events.example.com'],
      accessCode: [ACCESS_CODE, '1', '9999'],
      selection: ['all', 'live', 'not-archived|tags:1,2', 'my-events|next-events'],
      name: ['Fuzz'],
      shortName: ['Fuzz Co'],
      email: ['fuzz@podium.test', 'admin-a@podium.test'],
      path: ['companies.csv'],
      appIcon: ['https://example.com/icon.png'],
      key: ['shortName', 'name', 'feedback', 'level', 'visible', 'cname', 'dateBegin', 'mainColor', 'agreement'],
      value: ['1', '0', 'Fuzzed', '#1a2b3c', 'events.example.com', '1700000000', '<b>bold</b>'],
      query: ['Lisbon', 'A One', '1'],
      timezone: ['Europe/Lisbon', 'UTC'],
      tags: ['1', '1,2'],
      limit: ['20', '1', '100'],
      offset: ['0', '5'],
    };
    pool = [
      ...new Set([
        ...Object.values(named).flat(),
        ...['0', '1', '2', '-1', '1700000000', 'ASC', 'DESC', 'eventID', 'dateBegin', 'en', 'x', 'true', ' 1', '1.5'],
      ]),
    ];
  });
  afterAll(async () => {
    await p?.close();
    await crm?.close();
  });

  const accepts = (param: Param, v: string) => param.schema.safeParse(v).success;
  /** Valid-looking values of a parameter: named candidates, its enum values, and pool values the schema accepts. */
  function validValues(op: AnyOperation, name: string): string[] {
    const param = (op.params as Record<string, Param>)[name];
    if (!param) return [];
    const json = paramJsonSchema(param);
    const enums = Array.isArray(json.enum)
      ? (json.enum as string[])
      : typeof json.const === 'string'
        ? [json.const]
        : [];
    const own = name === 'key' ? keysOf(op) : [];
    return [...new Set([...own, ...(named[name] ?? []), ...enums, ...pool])].filter((v) => accepts(param, v));
  }

  /**
   * Values that make the operation succeed for the operator: the first valid candidate of each
   * required parameter, with the edit-style pairs of each operation (the key decides the value).
   */
  function base(op: AnyOperation): Values {
    const attendeeID = String(w.attendeeID);
    const pairs: Record<string, Values> = {
      'company.edit': { key: 'shortName', value: 'Fuzzed' },
      'event.edit': { key: 'name', value: 'Fuzzed' },
      'company.tool.edit': { key: 'feedback', value: '1' },
      'company.person.operate': { key: 'level', value: '1', personID: externalID },
      'company.person.dismiss': { personID: externalID },
      'activity.edit': { key: 'name', value: 'Fuzzed' },
      'activity.person.operate': { key: 'paid', value: '1', personID: attendeeID },
      'list.edit': { key: 'name', value: 'Fuzzed' },
      'speaker.edit': { key: 'name', value: 'Fuzzed' },
      'sponsor.edit': { key: 'name', value: 'Fuzzed' },
      'tag.edit': { key: 'name', value: 'Fuzzed' },
      'event.hotsite.edit': { key: 'name', value: 'Fuzzed' },
      'event.person.operate': { key: 'role', value: 'Fuzzed', personID: attendeeID },
      'event.person.get': { personID: attendeeID },
      'event.person.print': { personID: attendeeID },
      'event.person.dismiss': { personID: attendeeID },
      'form.edit': { key: 'consent', value: '' },
      'feedback.edit': { key: 'name', value: 'Fuzzed' },
      'event.invite.dismiss': { email: 'fuzz@podium.test' },
      'event.email.edit': { key: 'text', value: 'Fuzzed' },
      'event.email.unsubscribe': { email: 'fuzz@podium.test', sig: unsubscribeSig },
      'event.email.open': { emailLogID, sig: openSig },
      'event.email.bounce': { secret: TEST_BOUNCE_SECRET, messageID: `<log-${emailLogID}@podium.test>` },
      'event.sender.edit': { key: 'senderName', value: 'Fuzzed', personID: attendeeID },
      'event.sanity.operate': { key: 'clean', value: '1' },
      'event.person.bind': { username: 'nobody@podium.test' },
      'person.edit': { key: 'name', value: 'Fuzzed' },
      'company.tag.remove': eventTagPairs,
      'event.tag.bind': eventTagPairs,
      'event.tag.dismiss': eventTagPairs,
      'webhook.edit': { key: 'types', value: 'activity.edit' },
      'coupon.get': { code: couponCode },
      'budget.edit': { key: 'price', value: '9.99' },
      'ad.edit': { key: 'weight', value: '2' },
      'case.edit': { key: 'headline', value: 'Fuzzed' },
      'beacon.action.create': { message: 'Fuzzed' },
      'beacon.action.edit': { key: 'title', value: 'Fuzzed' },
      'event.applicant.bind': { username: 'nobody@podium.test' },
      'event.applicant.operate': { personID: applicantID },
      'event.applicant.get': { personID: applicantID },
      'event.applicant.approve': { personID: applicantID },
      'event.applicant.dismiss': { personID: applicantID },
      'event.guest.bind': { hostID: attendeeID },
      'event.guest.operate': { personID: guestID, key: 'name', value: 'Fuzzed' },
      'event.guest.get': { personID: guestID },
      'event.guest.dismiss': { personID: guestID },
      'event.booking.get': { value: bookingValue },
      'event.booking.use': { value: bookingValue },
      'comment.edit': { key: 'approved', value: '1' },
      'error.edit': { key: 'solved', value: '1' },
      'download.file': { key: downloadKey },
      'person.signInLink': { code: linkCode },
      // Its target names the activity the people are bound to (targetID is required for that target only).
      'daemon.bulk': { targetID: validValues(op, 'targetID')[0] ?? '' },
    };
    const out: Values = {};
    for (const name of requiredOf(op)) out[name] = validValues(op, name)[0] ?? '';
    return { ...out, ...pairs[op.name] };
  }

  it('the base parameters of every operation succeed for the operator (so hostile values reach deep)', async () => {
    const problems: string[] = [];
    for (const op of operations)
      for (const style of STYLES)
        for (const method of methodsOf(op))
          await probe(p, request(op, base(op), style, method, w.operator), problems, 200);
    expect(problems).toEqual([]);
  });

  it('an unknown operation is 404 in both styles; no operation at all is 400', async () => {
    const problems: string[] = [];
    const names = ['nope.nothing', 'company', 'company.get.extra', 'Company.Get', 'company..get', '__proto__', 'constructor', 'toString', 'hasOwnProperty', `a${'.b'.repeat(300)}`, 'événement.get', "event.get'--"]; // prettier-ignore
    for (const name of names)
      for (const style of STYLES)
        for (const method of ['GET', 'POST'])
          await probe(
            p,
            { name, style, method, token: w.operator, body: method === 'POST' ? {} : undefined },
            problems,
            404,
          );
    await probe(p, { name: '', style: 'rpc', method: 'GET' }, problems, 400);
    await probe(p, { name: '', style: 'rest', method: 'GET' }, problems, 400);
    expect(problems).toEqual([]);
  });

  it('a method the operation does not declare is 405 with an Allow header naming the declared ones', async () => {
    const problems: string[] = [];
    for (const op of operations)
      for (const style of STYLES)
        for (const method of ['GET', 'POST'].filter((m) => !methodsOf(op).includes(m))) {
          const r = await probe(p, request(op, base(op), style, method, w.operator), problems, 405);
          if (r.headers.get('allow') !== op.methods.join(', '))
            problems.push(`${method} ${style} ${op.name}: Allow ${r.headers.get('allow')}`);
        }
    expect(problems).toEqual([]);
  });

  it('a JSON (or other non-form) body is 415 (but where the operation takes JSON) and an oversized body 413, for every operation', async () => {
    const problems: string[] = [];
    for (const [i, op] of operations.entries()) {
      const { query, body } = place(op, base(op));
      for (const style of STYLES) {
        const json = { name: op.name, style, method: 'POST', query, token: w.operator, body: JSON.stringify(body) };
        // The one operation that takes JSON (event.email.bounce: an MTA's report) takes this one too.
        await probe(p, { ...json, contentType: 'application/json' }, problems, op.json ? 200 : 415);
        await probe(p, { ...json, contentType: 'text/plain' }, problems, 415);
      }
      const big = `${form(body)}&pad=${'x'.repeat(BODY_LIMIT)}`;
      await probe(p, { name: op.name, style: STYLES[i % 2], method: 'POST', query, token: w.operator, body: big }, problems, 413); // prettier-ignore
    }
    expect(problems).toEqual([]);
  });

  it('a required parameter sent in the wrong place (query instead of body, or back) is not read: 400', async () => {
    const problems: string[] = [];
    for (const op of operations) {
      const values = base(op);
      for (const name of requiredOf(op)) {
        const param = (op.params as Record<string, Param>)[name];
        const { [name]: moved, ...rest } = values;
        if (otherFormWithout(op, name, rest)) continue;
        const { query, body } = place(op, rest);
        (param.place === 'body' ? query : body)[name] = moved;
        const method = methodsOf(op).includes('POST') ? 'POST' : 'GET';
        if (method === 'GET' && param.place === 'query') continue; // a GET cannot carry it in a body
        await probe(p, { name: op.name, style: 'rpc', method, query, body: method === 'POST' ? body : undefined, token: w.operator }, problems, 400); // prettier-ignore
      }
    }
    expect(problems).toEqual([]);
  });

  describe.each(operations.map((op) => [op.name, op] as const))('%s', (_name, op) => {
    it('(a) no parameters: 401 without a token where one is needed, else 400 when something is required', async () => {
      const problems: string[] = [];
      const needsSomething = requiredOf(op).size > 0;
      for (const style of STYLES)
        for (const method of methodsOf(op))
          // person.signOut ends the token it is called with (no sandbox here): a token of its own.
          for (const token of [undefined, op.name === 'person.signOut' ? spareToken : w.operator]) {
            const expected = !token && op.auth.kind !== 'public' ? 401 : needsSomething ? 400 : 200;
            await probe(p, { name: op.name, style, method, token }, problems, expected);
          }
      expect(problems).toEqual([]);
    });

    // An operation whose base call hashes a password (a `prepare` step: scrypt, ~50 ms), twice per value
    // when public (event.applicant.bind, 14 parameters), takes longer than the default 30 s.
    it('(b) hostile values in each declared parameter', { timeout: op.prepare ? 120_000 : undefined }, async () => {
      const problems: string[] = [];
      const values = base(op);
      const required = requiredOf(op);
      let i = 0;
      for (const [name, param] of paramsOf(op)) {
        const tries = [
          ...HOSTILE.map((h) => ({ label: h.label, value: h.value(param.place) })),
          ...(HOSTILE_BY_NAME[name] ?? []).map((v) => ({ label: 'by name', value: v })),
        ];
        const companion = COMPANION[name];
        const companions = companion ? validValues(op, companion) : [];
        for (const [n, hostile] of tries.entries()) {
          const style = STYLES[i++ % 2];
          const method = methodsOf(op)[i % op.methods.length];
          const sent: Values = { ...values, [name]: hostile.value };
          if (companions.length > 0) sent[companion] = companions[n % companions.length];
          // Spec §7.3: a missing or empty required parameter is 400; a repeated one is refused too. A GET
          // drops body values, and an empty variant parameter can make the call another form.
          const sentAtAll = !(method === 'GET' && param.place === 'body');
          const requiredHere = required.has(name) && !otherFormWithout(op, name, values);
          const expected =
            sentAtAll && ((hostile.label === 'empty' && requiredHere) || hostile.label === 'repeated key')
              ? 400
              : undefined;
          await probe(p, request(op, sent, style, method, w.operator), problems, expected);
          // Public operations run their handler without a token too.
          if (op.auth.kind === 'public') await probe(p, request(op, sent, STYLES[i % 2], method), problems, expected);
        }
      }
      expect(problems).toEqual([]);
    });

    it('(c) random valid-looking combinations (seeded), with and without the operator token', async () => {
      const problems: string[] = [];
      const r = prng(seedOf(op.name));
      const required = requiredOf(op);
      for (let n = 0; n < 16; n++) {
        const values: Values = {};
        for (const [name, param] of paramsOf(op)) {
          if (!r.chance(required.has(name) ? 0.95 : 0.4)) continue;
          const valid = validValues(op, name);
          values[name] =
            valid.length > 0 && r.chance(0.85) ? r.pick(valid) : r.chance(0.8) ? r.pick(pool) : (r.pick(HOSTILE).value(param.place) as string); // prettier-ignore
        }
        if (r.chance(0.15)) values.format = r.pick(['json', 'excel', 'xml']);
        if (r.chance(0.15)) values.paginated = r.pick(['0', '1']);
        const token = r.chance(0.6)
          ? w.operator
          : r.chance(0.5)
            ? undefined
            : r.pick([w.adminA, w.attendee, w.externalA]);
        await probe(p, request(op, values, r.pick(STYLES), r.pick(methodsOf(op)), token), problems);
      }
      expect(problems).toEqual([]);
    });
  });
});

describe('fuzz: what Node and the HTTP front answer before the dispatcher', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform('sqlite');
  });
  afterAll(() => p?.close());

  // A request head over Node's 16 KB limit never reaches the dispatcher; it still gets the spec's line.
  it('a 100 KB query string is refused with an error line', async () => {
    const r = await send(p, { name: 'company.get', style: 'rpc', method: 'GET', query: { namespace: LONG_BODY } });
    expect([413, 414, 431]).toContain(r.status);
  });

  it('PUT, DELETE, PATCH and OPTIONS on an operation are 405 with Allow; HEAD is GET', async () => {
    const head = await fetch(`${p.url}/company/get?companyID=1`, { method: 'HEAD' });
    expect(head.status).not.toBe(405);
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const r = await send(p, { name: 'company.get', style: 'rest', method, query: { companyID: '1' } });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('GET');
    }
  });
});
