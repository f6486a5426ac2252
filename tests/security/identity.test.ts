import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { client } from '../helpers/operations.ts';

// The identity (the person row: login, e-mail, system password, account names) changes only with
// proof: the person's own system-scope token (person.edit, with the current password for e-mail and
// password), or the one-time link person.recover sends to the address (person.confirm).

/** The code of the newest link written to MAIL_DIR for `to`, once the mail job wrote it. */
async function codeSentTo(p: TestPlatform, to: string, timeoutMs = 10_000): Promise<string | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const mail = p
      .mails()
      .filter((m) => m.includes(`To: ${to}`))
      .at(-1);
    if (mail || Date.now() > end) return mail?.match(/asks you for a code instead, it is: ([A-Za-z0-9_-]{60})/)?.[1];
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(STORES)('identity on %s', (store) => {
  let p: TestPlatform;
  let w: World;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    // The tests stand in for a proxy: X-Forwarded-For names the caller (the sign-in ceiling's many addresses).
    p = await startTestPlatform(store, { TRUST_PROXY: '127.0.0.1' });
    w = await world(p);
    c = client(p, 'rpc');
  });
  afterAll(() => p?.close());

  const identity = (username: string) =>
    p.db.selectFrom('person').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  describe('person.edit', () => {
    it('edits the account names with a system-scope token of the person, and nothing of any event', async () => {
      const token = await p.signIn('attendee@podium.test', PASSWORD);
      const [row] = await c.ok('person.edit', {
        token,
        query: { key: 'name' },
        body: { value: '  Ana   Maria Lima ' },
      });
      expect(row).toMatchObject({ name: 'Ana Maria Lima', firstName: 'Ana', lastName: 'Maria Lima' });
      expect(row).not.toHaveProperty('tokenID');
      const seen = await c.ok('event.person.get', {
        token: w.adminA,
        query: { eventID: w.eventA.eventID, personID: w.attendeeID },
      });
      expect(seen[0].name).toBe('attendee');
    });

    it.each([
      ['an event-scope token of the person', () => w.attendee, 403, /system-scope token/],
      ['no token', () => '', 401, /tokenID/],
    ])('is refused with %s', async (_label, token, status, message) => {
      await c.fail('person.edit', { token: token(), query: { key: 'name' }, body: { value: 'X' } }, status, message);
    });

    it('changes the e-mail and the password only with the current password', async () => {
      const token = await p.signIn('staff@podium.test', PASSWORD);
      for (const currentPassword of [undefined, 'not it'])
        await c.fail(
          'person.edit',
          {
            token,
            query: { key: 'password' },
            body: { value: 'a brand new one', ...(currentPassword ? { currentPassword } : {}) },
          },
          403,
          /currentPassword/,
        );
      await c.fail(
        'person.edit',
        { token, query: { key: 'email' }, body: { value: 'admin-a@podium.test', currentPassword: PASSWORD } },
        409,
      );
      const [row] = await c.ok('person.edit', {
        token,
        query: { key: 'email' },
        body: { value: 'Staff.New@podium.test', currentPassword: PASSWORD },
      });
      expect(row.email).toBe('staff.new@podium.test');
      await c.ok('person.edit', {
        token,
        query: { key: 'password' },
        body: { value: 'a brand new one', currentPassword: PASSWORD },
      });
      expect(await p.signIn('staff@podium.test', 'a brand new one')).toMatch(/^[A-Za-z0-9_-]{60}$/);
      await c.fail('person.signIn', { query: { username: 'staff@podium.test' }, body: { password: PASSWORD } }, 401);
    });
  });

  describe('person.recover and person.confirm', () => {
    it('sends a one-time link to the address that sets the password and revokes every old token', async () => {
      const old = await p.signIn('event-admin@podium.test', PASSWORD);
      const before = p.mails().length;
      const [sent] = await c.ok('person.recover', { body: { email: 'Event-Admin@podium.test' } });
      expect(sent).toEqual({ email: 'event-admin@podium.test', sent: '1' });
      // The e-mail is a job, written moments after the answer.
      expect((await p.mailsUntil(before + 1)).length).toBe(before + 1);
      const code = (await codeSentTo(p, 'event-admin@podium.test'))!;
      expect(code).toBeDefined();
      expect(p.logs.join('')).not.toContain(code); // the log names the file, never the link
      const [token] = await c.ok('person.confirm', { body: { code, password: 'recovered password' } });
      expect(token).toMatchObject({ scope: 'system', username: 'event-admin@podium.test' });
      await c.ok('api.describe', { token: token.tokenID });
      await c.fail('api.describe', { token: old }, 401);
      expect(await p.signIn('event-admin@podium.test', 'recovered password')).toMatch(/^[A-Za-z0-9_-]{60}$/);
      // Used once.
      await c.fail('person.confirm', { body: { code, password: 'another password' } }, 400, /code is not valid/);
    });

    it('answers the same for an unknown address and writes nothing', async () => {
      const before = p.mails().length;
      const requests = () => p.db.selectFrom('confirmation').select('codeHash').execute();
      const rows = (await requests()).length;
      const [sent] = await c.ok('person.recover', { body: { email: 'nobody@podium.test' } });
      expect(sent).toEqual({ email: 'nobody@podium.test', sent: '1' });
      // No request, so no job: nothing will be written later either.
      expect((await requests()).length).toBe(rows);
      await new Promise((r) => setTimeout(r, 200));
      expect(p.mails().length).toBe(before);
    });

    it('refuses unknown, expired and short-password confirmations without changing the password', async () => {
      const stored = (await identity('admin-b@podium.test')).passwordHash;
      await c.ok('person.recover', { body: { email: 'admin-b@podium.test' } });
      const code = (await codeSentTo(p, 'admin-b@podium.test'))!;
      expect(code).toBeDefined();
      await c.fail('person.confirm', { body: { code: 'x'.repeat(60), password: 'whatever password' } }, 400);
      await c.fail('person.confirm', { body: { code, password: 'short' } }, 400, /password/);
      await p.db.updateTable('confirmation').set({ expiresAt: 1 }).execute();
      await c.fail('person.confirm', { body: { code, password: 'whatever password' } }, 400, /expired/);
      expect((await identity('admin-b@podium.test')).passwordHash).toBe(stored);
    });

    it('limits links per address', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await c.call('person.recover', { body: { email: 'external-a@podium.test' } })).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });
  });

  describe('person.signIn', () => {
    const signIn = (username: string, password: string, from: string) =>
      c.call('person.signIn', { query: { username }, body: { password }, headers: { 'x-forwarded-for': from } });

    it('meets guessing spread over many addresses with a ceiling per username; the mailbox still lets the person in', async () => {
      const username = 'guessed-widely@podium.test';
      await p.person(username, PASSWORD);
      // Five wrong passwords from each of ten addresses: under each address's own 10, at the username's 50.
      for (let i = 0; i < 50; i++)
        expect((await signIn(username, `guess ${i}`, `10.77.${Math.floor(i / 5)}.1`)).status).toBe(401);
      const refused = await signIn(username, PASSWORD, '10.77.99.1');
      expect([refused.status, refused.text]).toEqual([429, '429 too many wrong passwords for this username, try again later or set a new one with person.recover']); // prettier-ignore
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // An unknown username is counted alike, so the ceiling tells no one who has an account.
      for (let i = 0; i < 50; i++)
        await signIn('nobody-here@podium.test', `guess ${i}`, `10.78.${Math.floor(i / 5)}.1`);
      expect((await signIn('nobody-here@podium.test', 'x', '10.78.99.1')).text).toBe(refused.text);
      // Other people are not affected; the guessed person gets in through their mailbox.
      await p.person('bystander@podium.test', PASSWORD);
      expect((await signIn('bystander@podium.test', PASSWORD, '10.77.99.1')).status).toBe(200);
      await c.ok('person.recover', { body: { email: username } });
      const code = (await codeSentTo(p, username))!;
      const [token] = await c.ok('person.confirm', { body: { code, password: 'a new passphrase' } });
      expect(token).toMatchObject({ scope: 'system', username });
    });
  });
});
