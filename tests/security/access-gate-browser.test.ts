// Issue 9, item 4, in a real browser: once a private event's budget of wrong codes is spent, the site's
// gate page and the <podium-access-gate> widget (on a third-party page under a strict CSP with Trusted
// Types) solve the platform's proof-of-work challenge themselves, say so accessibly, keep the visitor's
// code, and let the right code in within seconds — with no CSP violation. Against the real
// `podium start` with the demo (its private event `demo/partners`) and Debian's Chromium.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ROOT, startPodium, type Podium } from '../site/harness.ts';
// @ts-expect-error -- plain ES modules without type declarations
import { buildWidgets } from '../../widgets/build.mjs';

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

let p: Podium;
let browser: Browser;
let eventID: string;
let widgetsDir: string;
const servers: Server[] = [];

/** A static server of `dir` on a free port, `headers` on every answer; `pages` are served from memory. */
async function serve(dir: string, headers: Record<string, string>, pages: Record<string, string> = {}) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = pages[path] ?? readFileSync(join(dir, path));
      const type = extname(path) === '.html' ? 'text/html' : 'text/javascript';
      res.writeHead(200, { 'content-type': type, ...headers }).end(body);
    } catch {
      res.writeHead(404, headers).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * A page that records CSP violations and console errors. Chromium logs every 4xx answer as an error:
 * those are the protocol here (the gate page is a 403, the platform's and the site's 428s).
 */
async function watchedPage(): Promise<{ page: Page; problems: () => Promise<string[]> }> {
  const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
  const errors: string[] = [];
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  page.on('console', (m) => {
    if (
      m.type() === 'error' &&
      !/^Failed to load resource: the server responded with a status of 4(03|28)/.test(m.text())
    )
      errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return {
    page,
    problems: async () => [
      ...errors,
      ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)),
    ],
  };
}

async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe.run(),
  );
  return result.violations.map((v) => v.id);
}

beforeAll(async () => {
  widgetsDir = mkdtempSync(join(tmpdir(), 'podium-gate-widgets-'));
  [p, browser] = await Promise.all([
    startPodium(),
    chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
    }),
    buildWidgets(widgetsDir),
  ]);
  eventID = JSON.parse((await http(`${p.api}/event/get?namespace=demo&nickname=partners`)).text).data[0].eventID;
  // 20 wrong codes from 20 visitors (one each: nobody reaches their own limit) spend the event's budget.
  const wrong = String((Number(p.accessCode) % 9999) + 1);
  for (let i = 1; i <= 20; i++) {
    const r = await http(`${p.site}/demo/partners/access`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `198.51.100.${i}` },
      body: new URLSearchParams({ accessCode: wrong, next: '/demo/partners' }).toString(),
    });
    expect(r.status).toBe(403);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  await p?.stop();
  if (widgetsDir) rmSync(widgetsDir, { recursive: true, force: true });
});

describe("the site's gate page", () => {
  it('solves the challenge, saying so, keeps a wrong code in the field, and lets the right code in', async () => {
    const { page, problems } = await watchedPage();
    // Every text the status takes, recorded as it changes in each page loaded: the message lasts only
    // while the solve runs (a few hundred ms), and CI's loaded machine showed a poll can miss it.
    await page.addInitScript(() => {
      const said: string[] = ((window as unknown as { said: string[] }).said = []);
      const note = () => {
        const text = document.getElementById('gate-robot')?.textContent ?? '';
        if (text && said.at(-1) !== text) said.push(text);
      };
      new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${p.site}/demo/partners/schedule`);
    const code = page.getByLabel('Access code');
    const wrong = String((Number(p.accessCode) % 9999) + 2);
    await code.fill(wrong);
    await page.getByRole('button', { name: 'Unlock' }).click();
    // The site answered 428: the same form, the code kept, and the browser at work, saying so.
    await expect.poll(() => page.locator('#gate-error').textContent(), { timeout: 15_000 }).toContain('Wrong code');
    expect(await page.evaluate(() => (window as unknown as { said: string[] }).said)).toContain(
      'Checking you are not a robot…',
    );
    expect(await code.inputValue()).toBe(wrong);
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    expect(await axe(page)).toEqual([]);
    // The right code: a new challenge, solved, then the event.
    const started = performance.now();
    await code.fill(p.accessCode);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.waitForURL(/\/demo\/partners\/schedule$/, { timeout: 15_000 });
    const ms = performance.now() - started;
    console.log(`site gate: the right code admitted ${Math.round(ms)} ms after Unlock (challenge solved in Chromium)`);
    expect(ms).toBeLessThan(10_000);
    expect(await page.locator('h1').textContent()).toBe('Schedule');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'podium_grant', httpOnly: true, path: '/demo/partners' });
    expect(await problems()).toEqual([]);
    await page.close();
  }, 60_000);

  it('lets the right code in from a fresh gate: the post answers 428, the page then solves at once', async () => {
    const { page, problems } = await watchedPage();
    await page.goto(`${p.site}/demo/partners`);
    await page.getByLabel('Access code').fill(p.accessCode);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.waitForURL(/\/demo\/partners$/, { timeout: 15_000 });
    expect(await page.locator('h1').textContent()).toBe('Partner Day');
    expect(await problems()).toEqual([]);
    await page.close();
  }, 60_000);

  it('keeps a grant the platform gave for this event, and no other', async () => {
    const post = (grant: string) =>
      http(`${p.site}/demo/partners/access`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '192.0.2.50' },
        body: new URLSearchParams({ grant, next: '/demo/partners/schedule' }).toString(),
      });
    // What the page's script gets from the platform: a solved challenge and the right code.
    const [row] = JSON.parse((await http(`${p.api}/event/accessCode/challenge?eventID=${eventID}`)).text).data;
    const challenge = JSON.parse(row.challenge) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const checked = await http(`${p.api}/event/checkAccessCode?eventID=${eventID}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '192.0.2.50' },
      body: new URLSearchParams({
        accessCode: p.accessCode,
        altcha: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
      }).toString(),
    });
    const { grant } = JSON.parse(checked.text).data[0];
    const kept = await post(grant);
    expect(kept.status).toBe(303);
    expect(kept.headers.location).toBe('/demo/partners/schedule');
    expect(String(kept.headers['set-cookie'])).toMatch(
      new RegExp(`^podium_grant=${grant.replaceAll('.', '\\.')}; Path=/demo/partners;`),
    );
    // Another event's, an expired one, or something else: not kept.
    const [, expires, mac] = grant.split('.');
    for (const other of [`${Number(eventID) + 1}.${expires}.${mac}`, `${eventID}.1000000000.${mac}`, 'x']) {
      const r = await post(other);
      expect(r.status, other).toBe(400);
      expect(r.headers['set-cookie'], other).toBeUndefined();
    }
  });
});

describe('<podium-access-gate> on a third-party page (strict CSP, Trusted Types)', () => {
  it('solves the challenge, saying so, and shows the content for the right code', async () => {
    const site = await serve(widgetsDir, { 'access-control-allow-origin': '*' });
    const csp = [
      "default-src 'none'",
      `script-src ${site}`,
      `connect-src ${p.api}`,
      "style-src 'self'",
      "require-trusted-types-for 'script'",
      'trusted-types lit-html',
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    const html = `<!doctype html><html lang="en"><head><title>Partners</title>
      <script type="module" src="${site}/podium-access-gate.js"></script></head>
      <body><main><podium-access-gate api="${p.api}" event="${eventID}"><p id="inside">Inside</p></podium-access-gate></main></body></html>`;
    const thirdParty = await serve(widgetsDir, { 'content-security-policy': csp }, { '/index.html': html });
    const { page, problems } = await watchedPage();
    await page.goto(`${thirdParty}/index.html`);
    const gate = page.locator('podium-access-gate');
    await gate.locator('input#code').fill(p.accessCode);
    // Every text the status takes, recorded as it changes: the solve may be over before a poll looks
    // (the solver is a chunk fetched on the first 428; on an idle machine the whole solve takes ~0.5 s).
    await page.evaluate(() => {
      const said: string[] = ((window as unknown as { said: string[] }).said = []);
      const root = document.querySelector('podium-access-gate')!.shadowRoot!;
      const note = () => {
        const text = root.querySelector('[role="status"]')?.textContent ?? '';
        if (text && said.at(-1) !== text) said.push(text);
      };
      new MutationObserver(note).observe(root, { subtree: true, childList: true, characterData: true });
    });
    const started = performance.now();
    await gate.locator('button[type="submit"]').click();
    expect(await gate.locator('input#code').inputValue()).toBe(p.accessCode);
    await page.locator('#inside').waitFor({ state: 'visible', timeout: 15_000 });
    const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
    expect(said).toContain('Checking you are not a robot…');
    const ms = performance.now() - started;
    console.log(
      `widget gate: the right code admitted ${Math.round(ms)} ms after Unlock (challenge solved in Chromium)`,
    );
    expect(ms).toBeLessThan(10_000);
    expect(await problems()).toEqual([]);
    await page.close();
  }, 60_000);
});
