// Webhooks with real OS processes on PostgreSQL (issue 14): two API processes (`podium start`,
// JOBS_WORK=0) take the writes, one `podium worker` feeds and delivers them; the worker is killed
// (SIGKILL) while deliveries are in flight and another takes over. Every change reaches the receiver
// (verified with standardwebhooks), at least once, none lost; duplicates share their webhook-id.
import { type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/platform/db/connect.ts';
import type { DB } from '../../src/platform/db/schema.ts';
import { createPerson } from '../../src/platform/resources/person/repository.ts';
import { PASSWORD, checkAnswer, freshStore } from '../helpers/platform.ts';
import { killAll, startPodiumProcess, until } from '../helpers/processes.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

const CHANGES = 60;

describe('webhooks: two API processes and a worker killed mid-delivery, on PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  let db: Kysely<DB>;
  let rx: Receiver;
  let env: Record<string, string>;
  const apis: string[] = [];

  async function ok(
    base: string,
    name: string,
    o: { query?: Record<string, string>; body?: Record<string, string>; token?: string } = {},
  ) {
    const query = new URLSearchParams({ ...o.query, ...(o.token ? { tokenID: o.token } : {}) });
    const res = await fetch(`${base}/${name.replaceAll('.', '/')}?${query}`, {
      method: o.body ? 'POST' : 'GET',
      headers: o.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      body: o.body ? new URLSearchParams(o.body) : undefined,
    });
    const text = await res.text();
    expect(text.slice(0, 200), `${name} should succeed`).toMatch(/^\{/);
    return checkAnswer(res.status, res.headers.get('content-type') ?? '', text).data as Record<string, string>[];
  }

  beforeAll(async () => {
    rx = await startReceiver();
    const store = await freshStore('postgres');
    drop = store.drop;
    env = {
      DATABASE_URL: store.url,
      SITE: '0',
      SEED_DEMO: '0',
      API_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_CLIENT: '100000',
      RATE_LIMIT_TOKEN: '100000',
      JOBS_WORK: '0',
      JOBS_LEASE_SECONDS: '2',
      JOBS_POLL_MS: '100',
      JOBS_STOP_TIMEOUT_MS: '500',
      WEBHOOK_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_ALLOW_HTTP: '1',
      WEBHOOK_FEED_MS: '100',
      WEBHOOK_RETRY_MS: '200,200,200,200,200',
    };
    for (let i = 0; i < 2; i++) apis.push((await startPodiumProcess('start', env)).match[1]);
    db = openStore(store.url).db;
  }, 60_000);

  afterAll(async () => {
    await killAll();
    await db?.destroy();
    await drop?.();
    await rx?.close();
  });

  it('delivers every change at least once though the worker dies mid-delivery', async () => {
    await createPerson(db, { username: 'op@hooks.test', password: PASSWORD, operator: true }, 0);
    const [a, b] = apis;
    const [{ tokenID: operator }] = await ok(a, 'person.signIn', {
      query: { username: 'op@hooks.test' },
      body: { password: PASSWORD },
    });
    const [company] = await ok(a, 'company.create', { token: operator, body: { shortName: 'Hooks' } });
    await ok(a, 'company.person.bind', {
      token: operator,
      query: { companyID: company.companyID },
      body: { name: 'Admin', email: 'admin@hooks.test', password: PASSWORD, level: '1' },
    });
    const [{ tokenID: admin }] = await ok(a, 'person.signIn', {
      query: { username: 'admin@hooks.test' },
      body: { password: PASSWORD },
    });
    const [{ eventID }] = await ok(a, 'company.event.bind', {
      token: admin,
      query: { companyID: company.companyID },
      body: { name: 'E', nickname: 'e' },
    });
    const [hook] = await ok(b, 'webhook.create', {
      token: admin,
      query: { companyID: company.companyID },
      body: { url: rx.url, types: 'activity.create' },
    });
    rx.secrets = [hook.secret];
    // Each answer takes a while: when the worker is killed, deliveries are in flight.
    rx.delayMs = 150;
    const first = await startPodiumProcess('worker', env);
    for (let i = 0; i < CHANGES; i++)
      await ok(i % 2 ? a : b, 'activity.create', {
        token: admin,
        query: { eventID },
        body: { name: `Talk ${i}`, dateBegin: '1700000000', dateEnd: '1700003600' },
      });
    await until(() => rx.received.length >= 5, 'the first deliveries', 20_000);
    await first.kill();
    const killedAt = rx.received.length;
    rx.delayMs = 0;
    await startPodiumProcess('worker', env);
    const ids = new Set(
      (await db.selectFrom('change').select('changeID').where('operation', '=', 'activity.create').execute()).map(
        (r) => `msg_${hook.webhookID}_${r.changeID}`,
      ),
    );
    expect(ids.size).toBe(CHANGES);
    await until(() => [...ids].every((id) => rx.received.some((r) => r.id === id)), 'every change delivered', 45_000);
    expect(rx.received.every((r) => r.verifiedBy === 0)).toBe(true);
    expect(new Set(rx.received.map((r) => r.id))).toEqual(ids);
    console.log(
      `[webhooks scale] ${CHANGES} changes, killed after ${killedAt} received, ${rx.duplicates()} duplicates (same webhook-id)`,
    );
  }, 120_000);
});
