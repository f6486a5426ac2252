import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/platform/webhooks/guard.ts';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

// The SSRF guard of webhook deliveries (issue 14, item 6): checked when a delivery goes out, after DNS,
// against every address the name resolves to; the refusal is logged on the delivery. Names resolve
// through a resolver the test controls. A 5-day run of failures turns the webhook off, on a clock the
// test controls. https only unless WEBHOOK_ALLOW_HTTP=1.

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::', true],
    ['fd00::1', true],
    ['fc00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['8.8.8.8', false],
    ['2606:4700::1111', false],
    ['::ffff:8.8.8.8', false],
    ['not an address', true],
  ])('%s → %s', (address, refused) => {
    expect(isPrivateAddress(address)).toBe(refused);
  });
});

describe.each(STORES)('deliveries refused by the guard on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let rx: Receiver;
  let offsetMs = 0;
  /** Names the test resolves, by hand. */
  const names: Record<string, string> = {};

  beforeAll(async () => {
    rx = await startReceiver();
    p = await startTestPlatform(
      kind,
      { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_RETRY_MS: '50,50,50,50,50', WEBHOOK_FEED_MS: '50', JOBS_POLL_MS: '50' },
      {
        webhooks: {
          now: () => Date.now() + offsetMs,
          resolve: async (hostname) =>
            names[hostname] ? [{ address: names[hostname], family: names[hostname].includes(':') ? 6 : 4 }] : [],
        },
      },
    );
    w = await world(p);
  });
  afterAll(async () => {
    await p?.close();
    await rx?.close();
  });

  async function attempts(url: string): Promise<Record<string, string>[]> {
    const [hook] = await p.ok('webhook.create', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { url },
    });
    await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
    for (let i = 0; i < 200; i++) {
      const [d] = await p.ok('webhook.delivery.find', { token: w.adminA, query: { webhookID: hook.webhookID } });
      if (d?.state !== 'pending') {
        await p.ok('webhook.remove', { token: w.adminA, query: { webhookID: hook.webhookID } });
        return d.attemptList as unknown as Record<string, string>[];
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the delivery did not settle');
  }

  const port = () => new URL(rx.url).port;
  it.each([
    ['loopback', 'http://127.0.0.1:PORT/hook', '127.0.0.1'],
    ['10/8', 'http://10.0.0.7:PORT/hook', '10.0.0.7'],
    ['172.16/12', 'http://172.20.1.1:PORT/hook', '172.20.1.1'],
    ['192.168/16', 'http://192.168.0.10:PORT/hook', '192.168.0.10'],
    ['metadata', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['IPv6 loopback', 'http://[::1]:PORT/hook', '::1'],
    ['a name resolving to loopback', 'http://rebind.test:PORT/hook', '127.0.0.1'],
    ['a name resolving to IPv6 ULA', 'http://ula.test:PORT/hook', 'fd12::1'],
  ])('refuses %s and logs it on the delivery', async (_label, url, address) => {
    names['rebind.test'] = '127.0.0.1';
    names['ula.test'] = 'fd12::1';
    const list = await attempts(url.replace('PORT', port()));
    // Refusals are retried (the name may change), then the delivery fails; nothing reached the receiver.
    expect(list.length).toBe(6);
    for (const a of list) {
      expect(a.status).toBe('0');
      expect(a.response).toContain(`refused`);
      expect(a.response).toContain(address);
    }
    expect(rx.received).toHaveLength(0);
  });

  it('refuses http: unless WEBHOOK_ALLOW_HTTP=1', async () => {
    const q = await startTestPlatform('sqlite', {});
    try {
      const v = await world(q);
      const r = await q.call('webhook.create', {
        token: v.adminA,
        query: { companyID: v.companyA.companyID },
        body: { url: 'http://example.com/hook' },
      });
      expect(r.text).toBe('400 url must be an https URL');
      await q.ok('webhook.create', {
        token: v.adminA,
        query: { companyID: v.companyA.companyID },
        body: { url: 'https://example.com/hook' },
      });
    } finally {
      await q.close();
    }
  });

  it('turns off a webhook that has failed for 5 days in a row, and says so; not before', async () => {
    names['rebind.test'] = '127.0.0.1';
    const [hook] = await p.ok('webhook.create', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { url: `http://rebind.test:${port()}/hook` },
    });
    const get = async () => (await p.ok('webhook.get', { token: w.adminA, query: { webhookID: hook.webhookID } }))[0];
    const failOnce = async (count: number) => {
      await p.ok('webhook.test', { token: w.adminA, query: { webhookID: hook.webhookID } });
      for (let i = 0; i < 200; i++) {
        const rows = await p.ok('webhook.delivery.find', { token: w.adminA, query: { webhookID: hook.webhookID } });
        if (rows.length >= count && rows.every((d) => d.state !== 'pending')) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the delivery did not settle');
    };
    await failOnce(1);
    const first = await get();
    expect(first).toMatchObject({ active: '1', disabledReason: '' });
    expect(Number(first.failingSince)).toBeGreaterThan(0);
    // Five days later by the platform's clock, the run of failures has not ended: off.
    offsetMs = 5 * 24 * 3600 * 1000;
    try {
      await failOnce(2);
    } finally {
      offsetMs = 0;
    }
    expect(await get()).toMatchObject({ active: '0', disabledReason: 'failing', failingSince: first.failingSince });
  });
});
