import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import type { Insertable } from 'kysely';
import type { EventPersonTable } from '../../src/platform/db/schema.ts';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import { startPlatform, type Platform } from '../../src/platform/server.ts';
import type { WebhookOptions } from '../../src/platform/webhooks/index.ts';
import { createPerson } from '../../src/platform/resources/person/repository.ts';

export const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The stores every database-touching suite runs on. */
export const STORES = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORES)[number];

/** A fresh, empty store: a new SQLite file, or a new PostgreSQL schema (dropped on close). */
export async function freshStore(kind: StoreKind): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'podium-test-'));
    return { url: `file:${join(dir, 'podium.db')}`, drop: async () => {} };
  }
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    url: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      // The store's pg-boss jobs (src/platform/jobs/postgres.ts), when it had a job queue.
      await c.query(`drop schema if exists ${schema}_jobs cascade`);
      await c.end();
    },
  };
}

export interface CallOptions {
  query?: Record<string, string | number>;
  body?: Record<string, string | number> | string;
  method?: 'GET' | 'POST';
  /** rpc: /?action=name&… ; rest: /module/op?… */
  style?: 'rpc' | 'rest';
  /** Sent as tokenID in the query. */
  token?: string;
  /** Sent as Authorization: Bearer. */
  bearer?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  text: string;
  headers: Headers;
  /** Parsed envelope for 200 JSON answers. */
  count: number;
  total?: string;
  data: Record<string, unknown>[];
}

/**
 * Every answer is checked against the spec's rules on its way back: a 200 JSON answer is the
 * envelope with `count` = data.length and every scalar a string; anything else is one plain line
 * `NNN message` whose code is the HTTP status.
 */
export function checkAnswer(status: number, type: string, text: string): Omit<Reply, 'headers' | 'status' | 'text'> {
  if (status === 200 && type.startsWith('application/json')) {
    const body = JSON.parse(text) as { count: unknown; total?: unknown; data: unknown[] };
    expect(Object.keys(body).sort()).toEqual(body.total === undefined ? ['count', 'data'] : ['count', 'data', 'total']);
    expect(body.count).toBe(String(body.data.length));
    if (body.total !== undefined) expect(body.total).toMatch(/^\d+$/);
    const strings = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(strings);
      if (v && typeof v === 'object') return Object.values(v).forEach(strings);
      expect(typeof v, `value ${JSON.stringify(v)} must be a string`).toBe('string');
    };
    body.data.forEach((row) => {
      expect(row && typeof row === 'object' && !Array.isArray(row)).toBe(true);
      strings(row);
    });
    return {
      count: body.data.length,
      total: body.total as string | undefined,
      data: body.data as Record<string, unknown>[],
    };
  }
  if (status !== 200) {
    expect(type).toMatch(/^text\/plain/);
    expect(text).toMatch(new RegExp(`^${status} \\S.*$`));
    expect(text).not.toMatch(/\n|at .*\.ts:\d|\bselect\b.*\bfrom\b|\binsert into\b|sqlite|postgres/i);
  }
  return { count: 0, data: [] };
}

/** Whether an answer is an open stream (change.subscribe): its head is the answer, it never ends by itself. */
export const isStream = (res: Response) =>
  res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');

/** An answer's text; an open stream is let go and reads as '' (sweeps over every operation call them all). */
export async function answerText(res: Response): Promise<string> {
  if (!isStream(res)) return res.text();
  await res.body?.cancel();
  return '';
}

export class TestPlatform {
  readonly platform: Platform;
  readonly logs: string[];
  readonly mailDir: string;
  readonly #drop: () => Promise<void>;

  constructor(platform: Platform, logs: string[], drop: () => Promise<void>, mailDir = '') {
    this.platform = platform;
    this.logs = logs;
    this.#drop = drop;
    this.mailDir = mailDir;
  }

  get url() {
    return this.platform.url;
  }
  get db() {
    return this.platform.store.db;
  }

  /** The e-mails the platform has written (MAIL_DIR), oldest first, as RFC 5322 text. */
  mails(): string[] {
    const dir = this.mailDir;
    if (!existsSync(dir)) return [];
    return (
      readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        // Bodies are quoted-printable (long lines wrap with `=`): decoded here, so tests read the text.
        .map((m) =>
          m.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
        )
    );
  }

  /**
   * The e-mails once there are `count` of them: e-mails are jobs, written by the platform's workers
   * moments after the answer of the write that asked for them. Fails after `timeoutMs`.
   */
  async mailsUntil(count: number, timeoutMs = 10_000): Promise<string[]> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const mails = this.mails();
      if (mails.length >= count) return mails;
      if (Date.now() > end) throw new Error(`${mails.length} e-mails after ${timeoutMs} ms, not ${count}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async call(name: string, o: CallOptions = {}): Promise<Reply> {
    const query = new URLSearchParams();
    if (o.style !== 'rest') query.set('action', name);
    if (o.token) query.set('tokenID', o.token);
    for (const [k, v] of Object.entries(o.query ?? {})) query.set(k, String(v));
    const path = o.style === 'rest' ? `/${name.replaceAll('.', '/')}` : '/';
    const headers: Record<string, string> = { ...o.headers };
    if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      body =
        typeof o.body === 'string'
          ? o.body
          : new URLSearchParams(Object.entries(o.body).map(([k, v]) => [k, String(v)])).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const res = await fetch(`${this.url}${path}?${query}`, {
      method: o.method ?? (body !== undefined ? 'POST' : 'GET'),
      headers,
      body,
    });
    const text = await answerText(res);
    if (isStream(res)) return { status: res.status, text, headers: res.headers, count: 0, data: [] };
    return {
      status: res.status,
      text,
      headers: res.headers,
      ...checkAnswer(res.status, res.headers.get('content-type') ?? '', text),
    };
  }

  /** call() that must succeed; returns the rows. */
  async ok(name: string, o: CallOptions = {}): Promise<Record<string, string>[]> {
    const r = await this.call(name, o);
    expect(r.text.slice(0, 200), `${name} should succeed`).toMatch(/^\{/);
    expect(r.status).toBe(200);
    return r.data as Record<string, string>[];
  }

  /** Creates a person straight in the store (operators exist only through the CLI). */
  async person(username: string, password: string, operator = false): Promise<number> {
    return createPerson(
      this.db,
      { username, password, operator, name: username.split('@')[0] },
      Math.floor(Date.now() / 1000),
    );
  }

  /**
   * Enrols a person straight in the store, with the event's profile copied from the person row (as
   * migration 0003 did for existing attendees); `values` sets any other eventPerson column.
   */
  async enrol(eventID: number, personID: number, values: Partial<Insertable<EventPersonTable>> = {}): Promise<void> {
    const person = await this.db
      .selectFrom('person')
      .select(['username', 'email', 'firstName', 'lastName', 'name'])
      .where('personID', '=', personID)
      .executeTakeFirstOrThrow();
    await this.db
      .insertInto('eventPerson')
      .values({ ...person, ...values, eventID, personID })
      .execute();
  }

  /** Inserts one row straight in the store (fixtures of content tables); answers its `key` column as a string. */
  async insertRow(table: string, values: Record<string, unknown>, key: string): Promise<string> {
    const row = (await this.db
      .insertInto(table as never)
      .values(values as never)
      .returning(key as never)
      .executeTakeFirstOrThrow()) as Record<string, number>;
    return String(row[key]);
  }

  async signIn(username: string, password: string, eventID?: number): Promise<string> {
    const rows = await this.ok('person.signIn', {
      query: { username, ...(eventID ? { eventID } : {}) },
      body: { password },
    });
    return rows[0].tokenID;
  }

  async close() {
    await this.platform.close();
    await this.#drop();
  }
}

/** Starts the real platform on a free port over a fresh store; env overrides the defaults. */
export async function startTestPlatform(
  kind: StoreKind,
  env: Record<string, string> = {},
  opts: { webhooks?: WebhookOptions } = {},
): Promise<TestPlatform> {
  // With DATABASE_URL: another process of a store that exists (the first one drops it).
  const store = env.DATABASE_URL ? { url: env.DATABASE_URL, drop: async () => {} } : await freshStore(kind);
  const config = loadConfig({
    DATABASE_URL: store.url,
    // Each platform writes its e-mails (.eml files) in a folder of its own; tests read them there.
    MAIL_DIR: mkdtempSync(join(tmpdir(), 'podium-mail-')),
    API_PORT: '0',
    LOG_LEVEL: 'info',
    // High by default so suites that make many calls are not limited; the limit suite lowers them.
    RATE_LIMIT_CLIENT: '100000',
    RATE_LIMIT_TOKEN: '100000',
    SEED_DEMO: '0',
    // A fixed test key, so webhook.create works in every suite (docs/webhooks.md "Secrets").
    WEBHOOK_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    // A fixed bounce secret, so event.email.bounce answers in the sweeps (docs/messaging.md).
    BOUNCE_SECRET: TEST_BOUNCE_SECRET,
    ...env,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const platform = await startPlatform(config, { logStream, webhooks: opts.webhooks });
  return new TestPlatform(platform, logs, store.drop, config.MAIL_DIR);
}

export const PASSWORD = 'correct horse battery';

/** The BOUNCE_SECRET every test platform has (event.email.bounce), unless the test sets another. */
export const TEST_BOUNCE_SECRET = 'test-bounce-secret-0123456789';

/** A platform operator's token and a company it created: the set-up of suites that need only these. */
export async function operatorWithCompany(p: TestPlatform, shortName: string) {
  await p.person('op@podium.test', PASSWORD, true);
  const operator = await p.signIn('op@podium.test', PASSWORD);
  const companyID = (await p.ok('company.create', { token: operator, body: { shortName } }))[0].companyID;
  return { operator, companyID };
}

/**
 * A small world for authorization tests: an operator; companies A and B with an admin each and an
 * external user in A; event A1 in A (public) with an attendee (event password), an event-scope admin,
 * a staff member; event B1 in B.
 */
export async function world(p: TestPlatform) {
  await p.person('operator@podium.test', PASSWORD, true);
  const operator = await p.signIn('operator@podium.test', PASSWORD);
  const mkCompany = async (shortName: string) =>
    (await p.ok('company.create', { token: operator, body: { shortName } }))[0];
  const companyA = await mkCompany('Alpha Events');
  const companyB = await mkCompany('Beta Events');
  const bind = (companyID: string, email: string, level: 0 | 1) =>
    p.ok('company.person.bind', {
      token: operator,
      query: { companyID },
      body: { name: email, email, password: PASSWORD, level },
    });
  await bind(companyA.companyID, 'admin-a@podium.test', 1);
  await bind(companyA.companyID, 'external-a@podium.test', 0);
  await bind(companyB.companyID, 'admin-b@podium.test', 1);
  const adminA = await p.signIn('admin-a@podium.test', PASSWORD);
  const externalA = await p.signIn('external-a@podium.test', PASSWORD);
  const adminB = await p.signIn('admin-b@podium.test', PASSWORD);
  const eventA = (
    await p.ok('company.event.bind', {
      token: adminA,
      query: { companyID: companyA.companyID },
      body: { name: 'A One', nickname: 'a-one' },
    })
  )[0];
  const eventB = (
    await p.ok('company.event.bind', {
      token: adminB,
      query: { companyID: companyB.companyID },
      body: { name: 'B One', nickname: 'b-one' },
    })
  )[0];
  for (const e of [eventA, eventB])
    await p.ok('event.edit', { token: operator, query: { eventID: e.eventID, key: 'visible' }, body: { value: 1 } });

  // Attendees are added straight in the store until event.person.bind lands (issue 3).
  const { hashPassword } = await import('../../src/platform/auth/secrets.ts');
  const member = async (email: string, level: number) => {
    const personID = await p.person(email, PASSWORD);
    await p.enrol(Number(eventA.eventID), personID, { level, passwordHash: await hashPassword(`${PASSWORD} event`) });
    return personID;
  };
  const attendeeID = await member('attendee@podium.test', 1);
  await member('event-admin@podium.test', 4);
  await member('staff@podium.test', 64);
  const eventPw = `${PASSWORD} event`;
  return {
    operator,
    adminA,
    externalA,
    adminB,
    companyA,
    companyB,
    eventA,
    eventB,
    attendeeID,
    attendee: await p.signIn('attendee@podium.test', eventPw, Number(eventA.eventID)),
    attendeeSystem: await p.signIn('attendee@podium.test', PASSWORD),
    eventAdminEventScope: await p.signIn('event-admin@podium.test', eventPw, Number(eventA.eventID)),
    eventAdminSystem: await p.signIn('event-admin@podium.test', PASSWORD),
    staff: await p.signIn('staff@podium.test', eventPw, Number(eventA.eventID)),
  };
}
export type World = Awaited<ReturnType<typeof world>>;

/** The stream tests' two-process set-ups: PostgreSQL's notifications alone, and with Redis carrying them. */
export const TWO_PROCESSES = [
  ['postgres', {}],
  ['postgres', { REDIS_URL }],
] as const;

/**
 * For a describe block: two platforms on one database (what is written through `a` must be heard on
 * `b`) and a world made through `a`, started before its tests and closed after. The fields are set in
 * beforeAll, so read them inside the tests.
 */
export function twoProcesses(kind: StoreKind, env: Record<string, string>) {
  const two = {} as { a: TestPlatform; b: TestPlatform; w: World };
  beforeAll(async () => {
    two.a = await startTestPlatform(kind, { ...env });
    two.b = await startTestPlatform(kind, { ...env, DATABASE_URL: two.a.platform.databaseUrl });
    two.w = await world(two.a);
  });
  afterAll(async () => {
    await two.b?.close();
    await two.a?.close();
  });
  return two;
}
