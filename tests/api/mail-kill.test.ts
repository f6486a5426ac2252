// A dispatch to 5,000 attendees survives a worker kill halfway (issue 15), on both stores: the API
// process only adds jobs (JOBS_WORK=0), a real `podium worker` sends event.email.dispatch's messages
// to an SMTP server on loopback and is killed (SIGKILL, no shutdown) once about half arrived; a second
// worker finishes. Every address gets exactly one message — counted as the server took them, not
// deduplicated — whose Message-ID is its e-mail log row's, and the log has one `sent` row per attendee.
// What makes it exact: the SMTP outbox sends a message's final dot only after its log row says `sent`
// (src/platform/mail/outbox.ts), so the messages in flight at the kill never arrived and are sent again.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, freshStore, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { killAll, startPodiumProcess, until } from '../helpers/processes.ts';
import { seedAttendees } from '../../src/platform/seed/attendees.ts';

const PEOPLE = 5000;

/**
 * An SMTP server that keeps, per recipient, the Message-ID of every message it took in full. While
 * `hold` is set it leaves each RCPT TO unanswered: the sender's messages stay in flight (their log rows
 * `sending`) until the kill, so every run has messages the kill cuts off.
 */
async function countingSink() {
  const got = new Map<string, string[]>();
  let total = 0;
  const state = { hold: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.hold) callback();
    },
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (c: Buffer) => {
        if (head.length < 4096) head += c.toString('latin1');
      });
      // A client gone mid-DATA destroys the stream (no 'end'): that message was not taken.
      stream.on('error', () => {});
      stream.on('end', () => {
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1] ?? '?';
        for (const r of session.envelope.rcptTo) {
          const to = r.address.toLowerCase();
          got.set(to, [...(got.get(to) ?? []), id]);
        }
        total++;
        callback();
      });
    },
  });
  // The killed worker's connections end with a reset: nothing to report.
  server.on('error', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.server.address() as AddressInfo).port, got, total: () => total, state };
}

describe.each(STORES)('a 5,000-attendee dispatch whose worker is killed halfway, on %s', (kind) => {
  let p: TestPlatform;
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  let sink: Awaited<ReturnType<typeof countingSink>>;

  beforeAll(async () => {
    sink = await countingSink();
    const store = await freshStore(kind);
    drop = store.drop;
    env = {
      DATABASE_URL: store.url,
      SITE: '0',
      SEED_DEMO: '0',
      HOST: '127.0.0.1',
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      JOBS_WORK: '0',
      JOBS_POLL_MS: '50',
      // The killed worker's jobs wait out their lease before the second worker takes them.
      JOBS_LEASE_SECONDS: '5',
      JOBS_RETRY_SECONDS: '1',
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      SMTP_MAX_CONNECTIONS: '8',
      MAIL_FROM: 'Podium <no-reply@podium.test>',
      PUBLIC_API_URL: 'https://api.podium.test',
      MAIL_BATCH: '500',
      MAIL_EVENT_RATE: '100000',
    };
    p = await startTestPlatform(kind, env);
  }, 60_000);

  afterAll(async () => {
    await killAll();
    await p?.close();
    await drop?.();
    await new Promise<void>((r) => sink?.server.close(() => r()));
  });

  it('mails every attendee exactly once, and the log shows each once', { timeout: 480_000 }, async () => {
    const { operator: token, companyID } = await operatorWithCompany(p, 'Kill Co');
    const [{ eventID }] = await p.ok('company.event.bind', {
      token,
      query: { companyID },
      body: { name: 'Many', nickname: 'many' },
    });
    await seedAttendees(p.db, Number(eventID), PEOPLE, 'kill');
    const [{ eventEmailID }] = await p.ok('event.email.create', {
      token,
      query: { eventID },
      body: { subject: 'Hello {{firstName}}', text: '<p>See you, {{name}}.</p>' },
    });

    const started = Date.now();
    const at = (what: string) => console.log(`[${kind}] ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    const first = await startPodiumProcess('worker', env);
    await p.ok('event.email.dispatch', { token, body: { eventEmailID } });
    await until(() => sink.got.size >= PEOPLE / 2, 'half the messages', 300_000, 10);
    at(`${sink.total()} messages arrived, holding the server's answers`);
    sink.state.hold = true;
    const sending = async () =>
      Number(
        (
          await p.db
            .selectFrom('emailLog')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('eventEmailID', '=', Number(eventEmailID))
            .where('status', '=', 'sending')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await until(async () => (await sending()) >= 1, 'messages in flight', 30_000, 20).catch((err: Error) => {
      throw new Error(`${err.message}; the worker said:\n${first.output().slice(-3000)}`);
    });
    await new Promise((r) => setTimeout(r, 200));
    await first.kill();
    const atKill = sink.total();
    const inFlight = await sending();
    expect(atKill).toBeLessThan(PEOPLE);
    // Messages the kill cut off: their rows say sending, and they never arrived.
    expect(inFlight).toBeGreaterThanOrEqual(1);
    sink.state.hold = false;

    await startPodiumProcess('worker', env);
    at('second worker started');
    await until(() => sink.got.size >= PEOPLE, 'every message', 300_000, 50);
    at('every address has a message');
    // Anything sent twice would come right after: give it the time of a few sends.
    await new Promise((r) => setTimeout(r, 1500));
    console.log(
      `[${kind}] killed at ${atKill} messages with ${inFlight} rows 'sending'; ${sink.total()} messages in all`,
    );

    const rows = await p.db
      .selectFrom('emailLog')
      .select(['emailLogID', 'to', 'status', 'messageID', 'idem'])
      .where('eventEmailID', '=', Number(eventEmailID))
      .execute();
    expect(rows).toHaveLength(PEOPLE);
    expect(rows.filter((r) => r.status !== 'sent')).toEqual([]);
    expect(new Set(rows.map((r) => r.to.toLowerCase())).size).toBe(PEOPLE);
    expect(new Set(rows.map((r) => r.idem)).size).toBe(PEOPLE);

    const twice = [...sink.got].filter(([, ids]) => ids.length !== 1);
    expect(twice).toEqual([]);
    expect(sink.got.size).toBe(PEOPLE);
    expect(sink.total()).toBe(PEOPLE);
    // Each arrived message is the one its log row names.
    for (const r of rows) expect(sink.got.get(r.to.toLowerCase())).toEqual([r.messageID]);
    const [email] = await p.ok('event.email.get', { token, query: { eventEmailID } });
    expect([Number(email.sent), email.state]).toEqual([PEOPLE, 'dispatched']);
    // Each message took one unit of the balance: a message taken over keeps the unit of the run that died.
    const spent = await p.db.selectFrom('billing').select((e) => e.fn.sum<number>('sent').as('n')).where('product', '=', 'email').executeTakeFirst(); // prettier-ignore
    expect(Number(spent?.n)).toBe(PEOPLE);
  });
});
