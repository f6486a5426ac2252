// person.recover's e-mail is a durable job (issue 11): added in the transaction of the recover write,
// run by the workers (here the platform's own, in-process; tests/api/scale-out.test.ts runs it on a
// `podium worker` process). The queue holds no secret, and a job run again never leaves two valid codes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { fileOutbox } from '../../src/platform/mail/outbox.ts';
import type { Payload } from '../../src/platform/jobs/queue.ts';
import {
  RECOVER_MAIL_JOB,
  recoverMailHandler,
  requestRecovery,
  type RecoverMailPayload,
} from '../../src/platform/resources/person/recovery.ts';
import { PASSWORD, STORES, TestPlatform, startTestPlatform } from '../helpers/platform.ts';

const CODE = /asks you for a code instead, it is: ([A-Za-z0-9_-]{60})/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(STORES)('person.recover mails through a job on %s', (kind) => {
  let p: TestPlatform | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  /** The payloads of the store's jobs named person.recover.mail, in any state. */
  async function recoverJobs(t: TestPlatform): Promise<Payload[]> {
    if (kind === 'sqlite') {
      const rows = await t.db.selectFrom('job').select('payload').where('name', '=', RECOVER_MAIL_JOB).execute();
      return rows.map((r) => JSON.parse(r.payload) as Payload);
    }
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(t.db)).rows[0].s;
    const { rows } = await sql<{
      data: Payload;
    }>`select data from ${sql.table(`${schema}_jobs.job`)} where name = ${RECOVER_MAIL_JOB}`.execute(t.db);
    return rows.map((r) => r.data);
  }

  const requests = (t: TestPlatform) =>
    t.db.selectFrom('confirmation').select(['codeHash', 'personID', 'value', 'usedAt']).execute();

  it('adds the job with the request, in its transaction, carrying no code; no worker, no mail', async () => {
    p = await startTestPlatform(kind, { JOBS_WORK: '0' });
    const personID = await p.person('ana@podium.test', PASSWORD);
    const [sent] = await p.ok('person.recover', { body: { email: 'ana@podium.test' } });
    expect(sent).toEqual({ email: 'ana@podium.test', sent: '1' });
    const [row] = await requests(p);
    expect(row).toMatchObject({ personID, usedAt: 0 });
    // Not a code's hash yet: the job makes the code.
    expect(row.codeHash).toBe(`pending:${row.value}`);
    // The job names the person and the request, nothing else: no code, no hash, no address.
    expect(await recoverJobs(p)).toEqual([{ personID, request: row.value }]);

    // A recover write that rolls back leaves neither its request nor its job.
    const queue = p.platform.jobs.queue;
    await expect(
      p.db.transaction().execute(async (trx) => {
        await requestRecovery(trx, queue, personID, Math.floor(Date.now() / 1000));
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await requests(p)).toHaveLength(1);
    expect(await recoverJobs(p)).toHaveLength(1);

    // Nothing works jobs here (JOBS_WORK=0), so nothing is written; a sandbox call adds nothing either.
    await p.ok('person.recover', { query: { sandbox: 1 }, body: { email: 'ana@podium.test' } });
    expect(await recoverJobs(p)).toHaveLength(1);
    await sleep(300);
    expect(p.mails()).toEqual([]);
  });

  it('the workers write the e-mail after the answer; its code sets the password', async () => {
    p = await startTestPlatform(kind, { JOBS_POLL_MS: '50' });
    await p.person('bea@podium.test', PASSWORD);
    await p.ok('person.recover', { body: { email: 'BEA@podium.test' } });
    const [mail] = await p.mailsUntil(1);
    expect(mail).toContain('To: bea@podium.test');
    expect(mail).toContain('Subject: Set your Podium password');
    const code = mail.match(CODE)![1];
    expect(mail).toContain(`/podium-password?code=${code}`);
    // The log names the file; neither the code nor the job's payload carries it. (The line follows the
    // file's write: the file may be read a moment before it is logged.)
    for (let i = 0; i < 40 && !p.logs.join('').includes('mail written'); i++) await sleep(50);
    expect(p.logs.join('')).toContain('mail written');
    expect(p.logs.join('')).not.toContain(code);
    await p.ok('person.confirm', { body: { code, password: 'a new password' } });
    expect(await p.signIn('bea@podium.test', 'a new password')).toMatch(/^[A-Za-z0-9_-]{60}$/);
    // Done once: the job is finished (deleted on SQLite, completed in pg-boss), no second e-mail.
    await sleep(300);
    expect(p.mails()).toHaveLength(1);
  });

  it('run again (a worker killed after the e-mail went), it sends a new code that voids the first', async () => {
    p = await startTestPlatform(kind, { JOBS_WORK: '0' });
    const personID = await p.person('cy@podium.test', PASSWORD);
    // The job's payload as person.recover adds it, run by hand: twice, as after a crash.
    let payload: RecoverMailPayload | undefined;
    await p.db
      .transaction()
      .execute((trx) =>
        requestRecovery(
          trx,
          { add: async (_db, _name, data) => ((payload = data as unknown as RecoverMailPayload), true) },
          personID,
          Math.floor(Date.now() / 1000),
        ),
      );
    const dir = mkdtempSync(join(tmpdir(), 'podium-mail-'));
    const run = recoverMailHandler(p.db, fileOutbox(dir, 'Podium <no-reply@podium.test>'), {
      siteUrl: 'http://site.test',
    });
    const job = { id: '1', name: RECOVER_MAIL_JOB, attempt: 1 };
    await run(payload, job);
    await run(payload, { ...job, attempt: 2 });
    const mails = new TestPlatform(p.platform, [], async () => {}, dir).mails();
    expect(mails).toHaveLength(2);
    const [first, second] = mails.map((m) => m.match(CODE)![1]);
    expect(first).not.toBe(second);
    // One request, one valid code: the last one.
    expect(await requests(p)).toHaveLength(1);
    const refused = await p.call('person.confirm', { body: { code: first, password: 'first password' } });
    expect(refused.text).toMatch(/^400 code is not valid/);
    await p.ok('person.confirm', { body: { code: second, password: 'second password' } });
    // Once the link is used, a run sends nothing.
    await run(payload, { ...job, attempt: 3 });
    expect(new TestPlatform(p.platform, [], async () => {}, dir).mails()).toHaveLength(2);
  });
});
