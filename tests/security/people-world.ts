import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { LEVEL } from '../../src/platform/kernel/table.ts';
import { PASSWORD, answerText, type TestPlatform } from '../helpers/platform.ts';

// Two tenants for the people isolation tests (issue 9 item 2): each company has two public events with
// one object of every kind, a caller at every level, and two victims — people who exist only in that
// company, with a distinctive marker in every profile field, for the other company's callers to aim at.
// Two, because a person is found by username or by e-mail: one has a login name of their own, the
// other (like every person company.person.bind creates) logs in with their e-mail.

export type Values = Record<string, string>;

export interface Req {
  readonly name: string;
  readonly method: string;
  readonly query?: Values;
  readonly body?: Values;
  readonly token?: string;
}
export interface Res {
  readonly status: number;
  readonly text: string;
}

/** Sends one call as it is, with no checks (a leak must be recorded, not stop the sweep). */
export async function send(p: TestPlatform, r: Req): Promise<Res> {
  const query = new URLSearchParams({ action: r.name, ...r.query });
  if (r.token) query.set('tokenID', r.token);
  const body = r.body ? new URLSearchParams(r.body).toString() : undefined;
  const res = await fetch(`${p.url}/?${query}`, {
    method: r.method,
    headers: body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, text: await answerText(res) };
}

/** One event of a tenant and one object of every kind in it (the ids the operations name). */
export interface EventFixture {
  readonly eventID: string;
  readonly nickname: string;
  readonly label: string;
  readonly activityID: string;
  readonly chainID: string;
  readonly listID: string;
  readonly speakerID: string;
  readonly sponsorID: string;
  readonly tagID: string;
  readonly sectionID: string;
  readonly feedbackID: string;
  /** A custom e-mail of the event (event.email.send names it with the person to send it to). */
  readonly eventEmailID: string;
}

/** Someone calling: a token (none for anonymous) and the events that are theirs to aim at. */
export interface Caller {
  readonly label: string;
  readonly token?: string;
  readonly events: readonly EventFixture[];
}

/** A person the other tenant's callers aim at. */
export interface Victim {
  /** V1 (own login name) or V2 (logs in with the e-mail), as the problem lists name them. */
  readonly label: string;
  readonly personID: string;
  readonly username: string;
  readonly email: string;
  /** Every stored marker of this victim; none may ever reach the other tenant. */
  readonly marker: RegExp;
}

export interface Tenant {
  readonly letter: 'A' | 'B';
  readonly companyID: string;
  readonly namespace: string;
  readonly events: readonly [EventFixture, EventFixture];
  readonly admin: string;
  readonly callers: readonly Caller[];
  readonly victims: readonly [Victim, Victim];
}

/**
 * Text columns that hold what a person told one company: each gets `<L>-ONLY-<table>_<column>-7f3`
 * wherever the store has the column (person today; eventPerson and companyPerson once profiles are
 * per tenant), so a leak names the field and where it was read from. Not username / e-mail: the
 * attacker knows those — they are how the victim is aimed at.
 */
const MARKED = [
  'firstName', 'lastName', 'name', 'role', 'company', 'summary', 'headline', 'city', 'telephone', 'image',
  'socialA', 'socialB', 'socialC', 'socialD', 'website', 'socialAID', 'socialBID', 'socialCID', 'message',
  'assistantEmail', 'origin',
] as const; // prettier-ignore

export const markerOf = (letter: string, table: string, column: string) => `${letter}-ONLY-${table}_${column}-7f3`;
export const markerPattern = (letter: string) => new RegExp(`${letter}-ONLY-\\w+-7f3`, 'gi');

/** The event password of every member made here (event-scope tokens). */
export const EVENT_PASSWORD = `${PASSWORD} event`;

async function insertOne(p: TestPlatform, table: string, values: Record<string, unknown>, key: string) {
  const row = (await p.db
    .insertInto(table as never)
    .values(values as never)
    .returning(key as never)
    .executeTakeFirstOrThrow()) as Record<string, number>;
  return String(row[key]);
}

async function ok(p: TestPlatform, r: Req): Promise<Record<string, string>[]> {
  const res = await send(p, r);
  if (res.status !== 200) throw new Error(`set-up ${r.name}: ${res.text.slice(0, 200)}`);
  return (JSON.parse(res.text) as { data: Record<string, string>[] }).data;
}

async function signIn(p: TestPlatform, username: string, password: string, eventID?: string) {
  const rows = await ok(p, {
    name: 'person.signIn',
    method: 'POST',
    query: { username, ...(eventID ? { eventID } : {}) },
    body: { password },
  });
  return rows[0].tokenID;
}

async function eventWithContent(p: TestPlatform, t: { companyID: string; admin: string }, label: string) {
  const nickname = label.toLowerCase();
  const [e] = await ok(p, {
    name: 'company.event.bind',
    method: 'POST',
    token: t.admin,
    query: { companyID: t.companyID },
    body: { name: `Event ${label}`, nickname },
  });
  await ok(p, {
    name: 'event.edit',
    method: 'POST',
    token: t.admin,
    query: { eventID: e.eventID, key: 'visible' },
    body: { value: '1' },
  });
  const eventID = Number(e.eventID);
  const companyID = Number(t.companyID);
  return {
    eventID: e.eventID,
    nickname,
    label,
    activityID: await insertOne(p, 'activity', { eventID, name: `${label} talk`, dateBegin: 1700000000, dateEnd: 1700003600 }, 'activityID'), // prettier-ignore
    chainID: await insertOne(p, 'chain', { eventID, name: `${label} chain` }, 'chainID'),
    listID: await insertOne(p, 'list', { eventID, name: `${label} list` }, 'listID'),
    speakerID: await insertOne(p, 'speaker', { eventID, name: `${label} speaker` }, 'speakerID'),
    sponsorID: await insertOne(p, 'sponsor', { eventID, name: `${label} sponsor` }, 'sponsorID'),
    tagID: await insertOne(p, 'tag', { eventID, companyID, name: `${label} track`, kind: 'activity' }, 'tagID'),
    sectionID: await insertOne(p, 'hotsite', { eventID, section: 'text', position: 1, name: label }, 'sectionID'),
    feedbackID: await insertOne(p, 'feedback', { eventID, name: `${label} field`, type: 'text', options: '[]', apiKey: null }, 'feedbackID'), // prettier-ignore
    eventEmailID: await insertOne(p, 'eventEmail', { eventID, subject: `${label} news`, text: '<p>News</p>', date: 1700000000 }, 'eventEmailID'), // prettier-ignore
  } satisfies EventFixture;
}

/** Event levels that get a member (system-scope token) in the tenant's first event. */
const MEMBER_LEVELS = {
  user: LEVEL.USER,
  'event admin': LEVEL.ADMIN,
  staff: LEVEL.STAFF,
  speaker: LEVEL.SPEAKER,
  collector: LEVEL.COLLECTOR,
  translator: LEVEL.TRANSLATOR,
} as const;

/**
 * Company `letter` with two visible public events, callers of every level, and two victims (see
 * victims()).
 */
export async function tenant(p: TestPlatform, operator: string, letter: 'A' | 'B'): Promise<Tenant> {
  const l = letter.toLowerCase();
  const domain = `tenant-${l}.test`;
  const [company] = await ok(p, {
    name: 'company.create',
    method: 'POST',
    token: operator,
    body: { shortName: `Tenant ${letter}` },
  });
  const companyID = company.companyID;
  const bind = (email: string, level: string) =>
    ok(p, {
      name: 'company.person.bind',
      method: 'POST',
      token: operator,
      query: { companyID },
      body: { name: email.split('@')[0], email, password: PASSWORD, level },
    });
  await bind(`admin@${domain}`, '1');
  await bind(`external@${domain}`, '0');
  const admin = await signIn(p, `admin@${domain}`, PASSWORD);
  const t = { companyID, admin };
  const events = [await eventWithContent(p, t, `${letter}1`), await eventWithContent(p, t, `${letter}2`)] as const;

  // Members straight in the store, as tests/helpers/platform.ts world() adds them.
  const eventPasswordHash = await hashPassword(EVENT_PASSWORD);
  const callers: Caller[] = [
    { label: `${letter} anonymous`, events },
    { label: `${letter} company admin`, token: admin, events },
    { label: `${letter} company external`, token: await signIn(p, `external@${domain}`, PASSWORD), events },
  ];
  for (const [label, level] of Object.entries(MEMBER_LEVELS)) {
    const username = `${label.replace(' ', '-')}@${domain}`;
    const personID = await p.person(username, PASSWORD);
    await p.db
      .insertInto('eventPerson')
      .values({ eventID: Number(events[0].eventID), personID, level, passwordHash: eventPasswordHash })
      .execute();
    callers.push({ label: `${letter}1 ${label}`, token: await signIn(p, username, PASSWORD), events: [events[0]] });
    if (level === LEVEL.USER || level === LEVEL.ADMIN)
      callers.push({
        label: `${letter}1 ${label} (event scope)`,
        token: await signIn(p, username, EVENT_PASSWORD, events[0].eventID),
        events: [events[0]],
      });
  }
  const victims = await victimsOf(p, { letter, companyID, operator, admin, events });
  return { letter, companyID, namespace: company.namespace, events, admin, callers, victims };
}

/**
 * V1 registers through the form in the first event (own login name, an answer to the custom field),
 * becomes a company admin (company.person.bind by the operator), is added to the second event by the
 * company admin and put on an activity. V2 is made a company admin by the operator with a system
 * password (username = e-mail) and added to the first event by the company admin. Then every profile
 * column of their rows gets a marker.
 */
async function victimsOf(
  p: TestPlatform,
  t: { letter: 'A' | 'B'; companyID: string; operator: string; admin: string; events: readonly EventFixture[] },
): Promise<[Victim, Victim]> {
  const { letter, companyID, operator, admin } = t;
  const [first, second] = t.events;
  const l = letter.toLowerCase();
  const marker = markerPattern(letter);
  const mark = (column: string) => markerOf(letter, 'form', column);
  const v1 = { label: 'V1', username: `v${l}-login-7f3`, email: `v${l}1-7f3@victim-${l}.test`, marker };
  const v2 = { label: 'V2', username: `v${l}2-7f3@victim-${l}.test`, email: `v${l}2-7f3@victim-${l}.test`, marker };
  const [registered] = await ok(p, {
    name: 'form.respondRegistration',
    method: 'POST',
    query: { eventID: first.eventID },
    body: {
      email: v1.email,
      username: v1.username,
      firstName: mark('firstName'),
      lastName: mark('lastName'),
      role: mark('role'),
      company: mark('company'),
      telephone: mark('telephone'),
      password: `${PASSWORD} victim`,
      feedbackContent: JSON.stringify([{ feedbackID: first.feedbackID, value: mark('answer') }]),
    },
  });
  const companyBind = (email: string, password?: string) =>
    ok(p, {
      name: 'company.person.bind',
      method: 'POST',
      token: operator,
      query: { companyID },
      body: { name: markerOf(letter, 'bind', 'companyName'), email, level: '1', ...(password ? { password } : {}) },
    });
  const eventBind = (eventID: string, username: string) =>
    ok(p, {
      name: 'event.person.bind',
      method: 'POST',
      token: admin,
      query: { eventID },
      body: {
        username,
        name: markerOf(letter, 'bind', 'name'),
        role: markerOf(letter, 'bind', 'role'),
        company: markerOf(letter, 'bind', 'company'),
        telephone: markerOf(letter, 'bind', 'telephone'),
      },
    });
  await companyBind(v1.email);
  await eventBind(second.eventID, v1.username);
  await ok(p, {
    name: 'activity.person.bind',
    method: 'POST',
    token: admin,
    query: { activityID: first.activityID, personID: registered.personID },
  });
  const [made] = await companyBind(v2.email, `${PASSWORD} victim`);
  await eventBind(first.eventID, v2.username);
  const eventIDs = t.events.map((e) => Number(e.eventID));
  for (const personID of [registered.personID, made.personID])
    await markEverywhere(p, letter, Number(companyID), eventIDs, Number(personID));
  return [
    { ...v1, personID: registered.personID },
    { ...v2, personID: made.personID },
  ];
}

/** Writes a marker into every MARKED column the victim's rows have (whatever the schema is). */
async function markEverywhere(
  p: TestPlatform,
  letter: string,
  companyID: number,
  eventIDs: number[],
  personID: number,
) {
  const db = p.db;
  const marks = (table: string, row: object | undefined, columns: readonly string[]) =>
    Object.fromEntries(
      columns
        .filter((c) => row !== undefined && c in row)
        .map((c) => {
          const m = markerOf(letter, table, c);
          const url = ['image', 'website'].includes(c) || /^social[A-D]$/.test(c);
          return [c, url ? `https://victim.example/${m}` : c === 'assistantEmail' ? `${m}@victim.test` : m];
        }),
    );
  const person = await db.selectFrom('person').selectAll().where('personID', '=', personID).executeTakeFirst();
  await db
    .updateTable('person')
    .set(marks('person', person, MARKED))
    .where('personID', '=', personID)
    .execute();
  for (const eventID of eventIDs) {
    const row = await db.selectFrom('eventPerson').selectAll().where('eventID', '=', eventID).where('personID', '=', personID).executeTakeFirst(); // prettier-ignore
    const set = marks('eventPerson', row, MARKED);
    if (Object.keys(set).length > 0)
      await db.updateTable('eventPerson').set(set).where('eventID', '=', eventID).where('personID', '=', personID).execute(); // prettier-ignore
  }
  const cp = await db.selectFrom('companyPerson').selectAll().where('companyID', '=', companyID).where('personID', '=', personID).executeTakeFirst(); // prettier-ignore
  const set = marks('companyPerson', cp, ['name']);
  if (Object.keys(set).length > 0)
    await db.updateTable('companyPerson').set(set).where('companyID', '=', companyID).where('personID', '=', personID).execute(); // prettier-ignore
}

export type Snapshot = Record<string, Record<string, unknown>[]>;

/**
 * A victim as their own company sees them: their person row, and their rows in the company's events
 * and in the company itself. Rows in the caller's company are not included (the caller may change
 * what people gave to the caller's own events).
 */
export async function snapshot(p: TestPlatform, t: Tenant, v: Victim): Promise<Snapshot> {
  const db = p.db;
  const personID = Number(v.personID);
  const eventIDs = t.events.map((e) => Number(e.eventID));
  const inEvents = async (table: 'eventPerson' | 'activityPerson' | 'feedbackAnswer' | 'eventPersonTag') =>
    (await db
      .selectFrom(table)
      .selectAll()
      .where('personID', '=', personID)
      .where('eventID', 'in', eventIDs)
      .execute()) as Record<string, unknown>[];
  // Ordered by the row's identity, not its content, so a changed column is compared with its own row.
  const identity = (r: Record<string, unknown>) =>
    ['eventID', 'activityID', 'feedbackID', 'tagID'].map((k) => String(r[k] ?? '').padStart(12, '0')).join();
  const sorted = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({ ...r })).sort((a, b) => identity(a).localeCompare(identity(b)));
  // Read at once (a pool on PostgreSQL): the sweep takes a snapshot after every write operation.
  const [person, eventPerson, companyPerson, activityPerson, feedbackAnswer, eventPersonTag] = await Promise.all([
    db.selectFrom('person').selectAll().where('personID', '=', personID).execute(),
    inEvents('eventPerson'),
    db
      .selectFrom('companyPerson')
      .selectAll()
      .where('personID', '=', personID)
      .where('companyID', '=', Number(t.companyID))
      .execute(),
    inEvents('activityPerson'),
    inEvents('feedbackAnswer'),
    inEvents('eventPersonTag'),
  ]);
  return {
    person,
    eventPerson: sorted(eventPerson),
    companyPerson,
    activityPerson: sorted(activityPerson),
    feedbackAnswer: sorted(feedbackAnswer),
    eventPersonTag: sorted(eventPersonTag),
  };
}

/** What changed between two snapshots, one line per changed column (or added/removed row). */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  const cut = (v: unknown) => {
    const s = JSON.stringify(v) ?? 'undefined';
    return s.length > 60 ? `${s.slice(0, 57)}…` : s;
  };
  for (const table of Object.keys(before)) {
    const a = before[table];
    const b = after[table];
    if (a.length !== b.length) {
      out.push(`${table}: ${a.length} row(s) → ${b.length}`);
      continue;
    }
    a.forEach((row, i) => {
      for (const column of new Set([...Object.keys(row), ...Object.keys(b[i])]))
        if (JSON.stringify(row[column]) !== JSON.stringify(b[i][column]))
          out.push(`${table}.${column}: ${cut(row[column])} → ${cut(b[i][column])}`);
    });
  }
  return out;
}
