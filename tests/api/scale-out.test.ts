// Scale-out with real OS processes (issue 11, "Backbone"; docs/deploy.md): two API processes
// (`podium start`, SITE=0, JOBS_WORK=0) and one `podium worker`, on one PostgreSQL store and one Redis,
// each on its own port. A write through A is read through B within a second; A and B share one count
// per rate-limit key (Redis); a job added through A (person.recover's e-mail) runs once, on the worker;
// a worker killed (SIGKILL) in the middle of that job loses nothing: a restarted worker runs it again
// after its lease, and the code of the killed run no longer works. The site, in a process of its own
// that reads B and follows B's change stream, shows an edit made through A within a second.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/platform/db/connect.ts';
import type { DB } from '../../src/platform/db/schema.ts';
import { createPerson } from '../../src/platform/resources/person/repository.ts';
import { RECOVER_MAIL_JOB } from '../../src/platform/resources/person/recovery.ts';
import { PASSWORD, REDIS_URL, checkAnswer, freshStore } from '../helpers/platform.ts';
import { ROOT, emlFiles, killAll, sleep, startPodiumProcess, until, type PodiumProcess } from '../helpers/processes.ts';
import { ensureBuilt } from '../../src/site/build.ts';

/** The per-client limit of A and B: low, so the test can meet it. */
const LIMIT = 10;
/** The jobs' lease: a killed worker's job comes back after it (plus a supervision pass and a retry delay). */
const LEASE_SECONDS = 2;

describe('scale-out: two API processes and a worker, as separate processes on PostgreSQL and Redis', () => {
  let drop: (() => Promise<void>) | undefined;
  let db: Kysely<DB>;
  let url: string;
  let a: string;
  let b: string;
  let apiA: PodiumProcess;
  let apiB: PodiumProcess;
  const mail = { a: tmpMail(), b: tmpMail() };
  let env: Record<string, string>;
  let admin: string;
  let eventID: string;
  let namespace: string;

  // Every call names a client of its own (X-Forwarded-For; A and B trust the loopback as their proxy),
  // from a range of this run: Redis counts per address for every process on it, other suites' included.
  const run = `10.${randomInt(256)}.${randomInt(256)}`;
  let clients = 0;
  const nextClient = () => `${run}.${++clients % 250}`;
  // Addresses of this run too: Redis counts the links asked for one address for an hour.
  const address = (name: string) => `${name}-${run}@scale.test`;

  function tmpMail(): string {
    return mkdtempSync(join(tmpdir(), 'podium-scale-mail-'));
  }

  /** One call to the process at `base`: the answer's status and rows (or its error line). */
  async function call(
    base: string,
    name: string,
    o: { query?: Record<string, string>; body?: Record<string, string>; token?: string; client?: string } = {},
  ) {
    const query = new URLSearchParams({ ...o.query, ...(o.token ? { tokenID: o.token } : {}) });
    const res = await fetch(`${base}/${name.replaceAll('.', '/')}?${query}`, {
      method: o.body ? 'POST' : 'GET',
      headers: {
        'x-forwarded-for': o.client ?? nextClient(),
        ...(o.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: o.body ? new URLSearchParams(o.body) : undefined,
    });
    const text = await res.text();
    const { data } = checkAnswer(res.status, res.headers.get('content-type') ?? '', text);
    return { status: res.status, text, rows: data as Record<string, string>[] };
  }
  async function ok(base: string, name: string, o: Parameters<typeof call>[2] = {}) {
    const r = await call(base, name, o);
    expect(r.text.slice(0, 200), `${name} should succeed`).toMatch(/^\{/);
    return r.rows;
  }

  const worker = (mailDir: string, extra: Record<string, string> = {}) =>
    startPodiumProcess('worker', { ...env, MAIL_DIR: mailDir, ...extra });

  /** The pg-boss rows of person.recover.mail jobs: state and retries. */
  async function recoverJobs(): Promise<{ state: string; retry_count: number }[]> {
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s;
    const { rows } = await sql<{ state: string; retry_count: number }>`
      select state, retry_count from ${sql.table(`${schema}_jobs.job`)} where name = ${RECOVER_MAIL_JOB}
      order by created_on`.execute(db);
    return rows;
  }

  /** The person's one recovery request: its stored hash ('pending:…' until a worker made its code). */
  const requestOf = async (personID: number) =>
    (await db.selectFrom('confirmation').select('codeHash').where('personID', '=', personID).executeTakeFirst())
      ?.codeHash;

  beforeAll(async () => {
    const store = await freshStore('postgres');
    drop = store.drop;
    url = store.url;
    env = {
      DATABASE_URL: url,
      REDIS_URL,
      SITE: '0',
      SEED_DEMO: '0',
      API_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_CLIENT: String(LIMIT),
      RATE_LIMIT_TOKEN: '100000',
      JOBS_WORK: '0',
      JOBS_LEASE_SECONDS: String(LEASE_SECONDS),
      JOBS_RETRY_SECONDS: '1',
      JOBS_POLL_MS: '200',
      JOBS_STOP_TIMEOUT_MS: '500',
    };
    // A first: it migrates the store; B and the worker find it up to date.
    const startedA = await startPodiumProcess('start', { ...env, MAIL_DIR: mail.a });
    apiA = startedA;
    a = startedA.match[1];
    const startedB = await startPodiumProcess('start', { ...env, MAIL_DIR: mail.b });
    apiB = startedB;
    b = startedB.match[1];

    db = openStore(url).db;
    // Operators exist only through the CLI; written straight in the store, as tests/helpers does.
    await createPerson(db, { username: 'op@scale.test', password: PASSWORD, operator: true }, 0);
    admin = (await ok(a, 'person.signIn', { query: { username: 'op@scale.test' }, body: { password: PASSWORD } }))[0]
      .tokenID;
    const [company] = await ok(a, 'company.create', { token: admin, body: { shortName: 'Scale Out' } });
    namespace = company.namespace;
    [{ eventID }] = await ok(a, 'company.event.bind', {
      token: admin,
      query: { companyID: company.companyID },
      body: { name: 'Scale', nickname: 'scale' },
    });
    await ok(a, 'event.edit', { token: admin, query: { eventID, key: 'visible' }, body: { value: '1' } });
  }, 60_000);

  afterAll(async () => {
    await killAll();
    await db?.destroy();
    await drop?.();
  });

  it('an edit through A is read through B within a second', async () => {
    const nameThroughB = async () => (await ok(b, 'event.get', { query: { eventID } }))[0].name;
    const took: number[] = [];
    for (let i = 0; i < 20; i++) {
      await nameThroughB(); // B has the old answer cached
      const value = `Scale ${i}`;
      await ok(a, 'event.edit', { token: admin, query: { eventID, key: 'name' }, body: { value } });
      const started = performance.now();
      await until(async () => (await nameThroughB()) === value, `B to read ${value}`, 2000, 2);
      took.push(performance.now() - started);
    }
    took.sort((x, y) => x - y);
    console.log(
      `[scale-out] edit through A → read through B, ms: p50 ${took[10].toFixed(1)}, max ${took[19].toFixed(1)}`,
    );
    expect(took[19]).toBeLessThan(1000);
  });

  it('the site, a process of its own reading B, shows an edit through A within a second', async () => {
    await ensureBuilt(ROOT, { quiet: true });
    // `podium site`: the site alone, reading B. It opens no store (this one does not exist) and serves no API.
    const site = await startPodiumProcess(
      'site',
      { ...env, DATABASE_URL: 'postgres://podium@127.0.0.1:1/none', SITE_PORT: '0', PODIUM_API_URL: b },
      /Podium site listening on (http:\/\/\S+)/,
      60_000,
    );
    expect(site.output()).not.toContain('Podium API listening');
    const page = `${site.match[1]}/${encodeURIComponent(namespace)}/scale`;
    // Each visit from a visitor of its own: the site forwards the address, and B limits per visitor.
    const visit = async () => (await fetch(page, { headers: { 'x-forwarded-for': nextClient() } })).text();
    expect(await visit()).toContain('<title>');
    await until(async () => apiB.output().includes('"msg":"stream"'), "the site's change stream on B");
    const took: number[] = [];
    for (let i = 0; i < 10; i++) {
      const value = `Site scale ${i}`;
      await visit(); // cached by the site
      await ok(a, 'event.edit', { token: admin, query: { eventID, key: 'name' }, body: { value } });
      const started = performance.now();
      await until(async () => (await visit()).includes(value), `the site to show ${value}`, 2000, 5);
      took.push(performance.now() - started);
    }
    took.sort((x, y) => x - y);
    console.log(
      `[scale-out] edit through A → site page (reading B) shows it, ms: p50 ${took[5].toFixed(1)}, max ${took[9].toFixed(1)}`,
    );
    expect(took[9]).toBeLessThan(1000);
    // SIGTERM: the answers in flight finish, the change stream closes, and it exits 0.
    const exited = new Promise((resolve) => site.child.once('exit', resolve));
    site.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('A and B share the rate-limit count of a client (Redis): 10 calls a second in all, not 10 each', async () => {
    const client = nextClient();
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) => call(i % 2 ? b : a, 'api.ping', { client }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - LIMIT);
  });

  it('a job added through A runs once, on the worker process, not on A or B', async () => {
    const email = address('once');
    const personID = await createPerson(db, { username: email, password: PASSWORD }, 0);
    const dir = tmpMail();
    const w = await worker(dir);
    try {
      await ok(a, 'person.recover', { body: { email } });
      await until(() => emlFiles(dir).length > 0, 'the e-mail');
      // Longer than the lease: a second run would have had its chance.
      await sleep((LEASE_SECONDS + 1) * 1000);
      expect(emlFiles(dir)).toHaveLength(1);
      expect(emlFiles(mail.a)).toEqual([]);
      expect(emlFiles(mail.b)).toEqual([]);
      expect(w.output()).toContain('mail written');
      expect(apiA.output()).not.toContain('mail written');
      expect(apiB.output()).not.toContain('mail written');
      expect(await recoverJobs()).toEqual([{ state: 'completed', retry_count: 0 }]);
      expect(await requestOf(personID)).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await w.kill();
    }
  });

  it('a worker killed (SIGKILL) in the middle of the job loses nothing: a restarted worker runs it again', async () => {
    const email = address('killed');
    const personID = await createPerson(db, { username: email, password: PASSWORD }, 0);
    const before = (await recoverJobs()).length;
    // This worker makes the code, then waits (MAIL_DELAY_MS, a test hook) before writing the e-mail.
    const dying = tmpMail();
    const first = await worker(dying, { MAIL_DELAY_MS: '60000' });
    await ok(a, 'person.recover', { body: { email } });
    await until(async () => !(await requestOf(personID))?.startsWith('pending:'), 'the job to make its code');
    const madeByTheKilled = await requestOf(personID);
    await first.kill();
    expect(emlFiles(dying)).toEqual([]);
    expect((await recoverJobs())[before]).toMatchObject({ state: 'active' });

    const dir = tmpMail();
    const killedAt = performance.now();
    const second = await worker(dir);
    try {
      await until(() => emlFiles(dir).length > 0, 'the job to run again', 20_000);
      console.log(`[scale-out] killed job written again after ${(performance.now() - killedAt).toFixed(0)} ms`);
      await sleep(500);
      expect(emlFiles(dir)).toHaveLength(1);
      const [job] = (await recoverJobs()).slice(before);
      expect(job.state).toBe('completed');
      expect(job.retry_count).toBeGreaterThanOrEqual(1);
      // The run that was killed left a code that no longer works: the new run's replaced it.
      expect(await requestOf(personID)).not.toBe(madeByTheKilled);
      const text = readFileSync(join(dir, emlFiles(dir)[0]), 'utf8').replace(/=\r?\n/g, '');
      const code = text.match(/asks you for a code instead, it is: ([A-Za-z0-9_-]{60})/)![1];
      await ok(b, 'person.confirm', { body: { code, password: 'after the crash' } });
    } finally {
      await second.kill();
    }
  });
});
