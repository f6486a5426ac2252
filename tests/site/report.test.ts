// What the site logs when requests fail (src/site/report.ts): one plain line per failure, its path
// without the query; a platform that is down is told once when it goes, at most every REMIND_MS while
// it stays down (with the count), and once when it answers again.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createClient, isUnreachable } from '../../src/client/index.ts';
import { PlatformWatch, REMIND_MS, failureLine } from '../../src/site/report.ts';

describe('failureLine', () => {
  it('is one line: status, path without its query, the cause and where a bug was thrown', () => {
    const bug = new TypeError('x is undefined\nsecond line');
    bug.stack =
      'TypeError: x is undefined\n    at render (file:///srv/podium/src/pages/a.astro:12:5)\n    at next (x:1:1)';
    expect(failureLine(500, '/acme/summit?code=123456', bug)).toBe(
      'site: 500 /acme/summit: TypeError: x is undefined (at file:///srv/podium/src/pages/a.astro:12:5)',
    );
    expect(failureLine(500, '/p', 'a\nb')).toBe('site: 500 /p: a');
  });
});

describe('PlatformWatch', () => {
  it('says the platform is down once, reminds with a count, and says when it is back', () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const watch = new PlatformWatch(
      'http://user:secret@api.internal:8080/api/',
      (l) => lines.push(l),
      () => now,
    );
    watch.answered();
    expect(lines).toEqual([]);
    for (let i = 0; i < 50; i++) watch.failed('connect ECONNREFUSED 10.0.0.2:8080');
    expect(lines).toEqual([
      'site: the platform at http://api.internal:8080/api is unreachable (connect ECONNREFUSED 10.0.0.2:8080); pages answer 503 until it is back',
    ]);
    now += REMIND_MS - 1;
    watch.failed('connect ECONNREFUSED 10.0.0.2:8080');
    expect(lines).toHaveLength(1);
    now += 1;
    watch.failed('connect ECONNREFUSED 10.0.0.2:8080');
    expect(lines[1]).toBe(
      'site: the platform at http://api.internal:8080/api is still unreachable (connect ECONNREFUSED 10.0.0.2:8080): 52 calls failed in 60 s',
    );
    now += 5000;
    watch.answered();
    watch.answered();
    expect(lines.slice(2)).toEqual([
      'site: the platform at http://api.internal:8080/api answers again, after 65 s unreachable (52 calls failed)',
    ]);
    watch.failed('Headers Timeout Error');
    expect(lines[3]).toMatch(/is unreachable \(Headers Timeout Error\)/);
    // Whoever waits for the platform's return (the site-key check) hears of each return, once.
    let back = 0;
    watch.onBack(() => back++);
    watch.answered();
    watch.answered();
    watch.failed('connect ECONNREFUSED 10.0.0.2:8080');
    watch.answered();
    expect(back).toBe(2);
    expect(lines.join('\n')).not.toContain('secret');
  });

  it("is told by the client: a refused connection, and a proxy's 502 for a platform behind it", async () => {
    const told: string[] = [];
    const watch = { failed: (cause: string) => told.push(`failed ${cause}`), answered: () => told.push('answered') };
    let answer = { status: 502, body: '' };
    const proxy = createServer((_req, res) => res.writeHead(answer.status).end(answer.body));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as { port: number }).port;
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, dataFreshMs: 0, reachability: watch });
    try {
      const gateway = await client.activityGet(1).catch((e: unknown) => e);
      expect(isUnreachable(gateway)).toBe(true);
      // The platform's own 502 line (a provider it called failed) is an answer: the platform is up.
      answer = { status: 502, body: '502 CRM provider x failed' };
      const own = await client.activityGet(1).catch((e: unknown) => e);
      expect(isUnreachable(own)).toBe(false);
      await new Promise((r) => proxy.close(r));
      const refused = await client.activityGet(1).catch((e: unknown) => e);
      expect(isUnreachable(refused)).toBe(true);
      expect(told).toEqual([
        'failed HTTP 502 from a proxy in front of it',
        'answered',
        // (a kept connection the server closed, or a new one refused)
        expect.stringMatching(/^failed (other side closed|connect ECONNREFUSED)/),
      ]);
    } finally {
      await client.close();
    }
  });
});
