import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../helpers/chromium.mjs';
// @ts-expect-error -- plain ES modules without type declarations
import { startDemoPlatform } from './demo-platform.mjs';
// @ts-expect-error -- plain ES modules without type declarations
import { buildWidgets } from '../../widgets/build.mjs';

// The widgets on a third-party page, end to end: the built bundle served by a "site" origin, the demo
// page (widgets/demo) served by another origin under a strict Content-Security-Policy with Trusted
// Types, the real platform on a third. The page registers an attendee, unlocks a private event's
// agenda and sees an edit made through the API mark a session of the agenda live (axe clean after); no
// CSP violation and no console error may happen on the way.

const root = join(import.meta.dirname, '..', '..');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

/** A static server of `dir` on a free port; `rewrite` may change an HTML page; `headers` go on every answer. */
async function serve(
  dir: string,
  headers: (path: string) => Record<string, string>,
  rewrite: (html: string) => string = (h) => h,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    try {
      let body: string | Buffer = readFileSync(file);
      if (extname(file) === '.html') body = rewrite(body.toString());
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...headers(path) });
      res.end(body);
    } catch {
      res.writeHead(404, headers(path)).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, origin: `http://127.0.0.1:${port}` };
}

describe('the widgets on a third-party page under a strict CSP', () => {
  let platform: {
    url: string;
    accessCode: string;
    privateEventID: number;
    admin: (name: string, query?: object) => Promise<{ data: Record<string, string>[] }>;
    stop: () => Promise<void>;
  };
  let site: { server: Server; origin: string };
  let thirdParty: { server: Server; origin: string };
  let browser: Browser;
  let page: Page;
  let widgetsDir: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    widgetsDir = mkdtempSync(join(tmpdir(), 'podium-widgets-e2e-'));
    await buildWidgets(join(widgetsDir, 'widgets'));
    platform = await startDemoPlatform();
    // The Podium site: serves the bundle; module scripts from another origin need CORS.
    site = await serve(widgetsDir, () => ({ 'access-control-allow-origin': '*' }));
    const csp = [
      "default-src 'none'",
      `script-src ${site.origin}`,
      `connect-src ${platform.url}`,
      "style-src 'self'",
      "img-src 'self' data:",
      "require-trusted-types-for 'script'",
      'trusted-types lit-html',
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    thirdParty = await serve(
      join(root, 'widgets', 'demo'),
      () => ({ 'content-security-policy': csp }),
      (html) => html.replaceAll('http://127.0.0.1:4321', site.origin).replaceAll('http://127.0.0.1:8080', platform.url),
    );
    browser = await chromium.launch(chromiumLaunchOptions());
    page = await browser.newPage({ viewport: { width: 360, height: 800 } });
    await page.addInitScript(() => {
      const w = window as unknown as { __violations: string[] };
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    thirdParty?.server.close();
    await platform?.stop();
    if (widgetsDir) rmSync(widgetsDir, { recursive: true, force: true });
  });

  it('loads every widget from the other origin', async () => {
    await page.goto(`${thirdParty.origin}/index.html`);
    const registration = page.locator('podium-registration').first();
    await registration.locator('input[name="firstName"]').waitFor();
    await page.locator('podium-agenda').first().locator('.session').first().waitFor();
    await page.locator('podium-access-gate').locator('input#code').waitFor();
    // The host page's theme reaches the shadow DOM.
    const color = await registration
      .locator('[part="form"] > [part="button"]')
      .evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(color).toBe('rgb(124, 58, 237)');
    // On this 360 px phone nothing scrolls sideways, and sessions link to their pages on the site.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
    const link = page.locator('podium-agenda').first().locator('.session .title a').first();
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${site.origin}/demo/summit/schedule/\\d+$`));
  }, 60_000);

  it('registers an attendee that the platform then has', async () => {
    const email = `e2e-${Date.now()}@widgets.test`;
    const form = page.locator('podium-registration').first();
    await form.locator('[name="firstName"]').fill('Ada');
    await form.locator('[name="lastName"]').fill('Lovelace');
    await form.locator('[name="email"]').fill(email);
    await form.locator('[name="f1"]').selectOption('11-50');
    await form.locator('[name="rsvp"]').selectOption('1');
    await form.locator('[part="form"] > [part="button"]').click();
    await form.locator('[part="success"]').waitFor();
    const found = await platform.admin('event.person.find', { eventID: 1, selection: 'all', email });
    expect(found.data.map((p) => p.email)).toEqual([email]);
    expect(found.data[0].rsvp).toBe('1');
  }, 60_000);

  it("unlocks the private event's agenda and registration through the gate", async () => {
    const gate = page.locator('podium-access-gate');
    await gate.locator('input#code').fill(platform.accessCode);
    await gate.locator('button[type="submit"]').click();
    const agenda = gate.locator('podium-agenda');
    await agenda.locator('.session').first().waitFor();
    // The focus went with the form: it is on what the gate revealed, not on <body>.
    expect(await gate.evaluate((el) => el.shadowRoot!.activeElement?.getAttribute('part'))).toBe('content');
    expect(await agenda.locator('.session').count()).toBeGreaterThan(0);
    await gate.locator('podium-registration').locator('input[name="email"]').waitFor();
  }, 60_000);

  it('switches a widget to Portuguese (its messages load from the site under the CSP)', async () => {
    const form = page.locator('podium-registration').first();
    await form.evaluate((el) => el.setAttribute('locale', 'pt'));
    await expect.poll(() => form.locator('[part="success"] h2').textContent()).toContain('Inscrição confirmada');
    const agenda = page.locator('podium-agenda').first();
    await agenda.evaluate((el) => el.setAttribute('locale', 'es'));
    await expect.poll(() => agenda.locator('[part="summary"]').textContent()).toContain('sesiones');
  }, 30_000);

  it('has had no CSP violation and no console error', async () => {
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  // Last: the browser reports the platform's 400 in the console.
  it('puts a refusal next to its field, with the code it loads from the site under the CSP', async () => {
    await page.evaluate(() => {
      const first = document.querySelector('podium-registration')!;
      const el = document.createElement('podium-registration');
      el.id = 'refused';
      el.setAttribute('api', first.getAttribute('api')!);
      el.setAttribute('event', '1');
      document.body.append(el);
    });
    const form = page.locator('#refused');
    await form.locator('[name="firstName"]').fill('Ada');
    await form.locator('[name="lastName"]').fill('Lovelace');
    await form.locator('[name="email"]').fill('ada@localhost'); // the browser takes it, the platform does not
    await form.locator('[name="f1"]').selectOption('11-50');
    await form.locator('[part="form"] > [part="button"]').click();
    await expect.poll(() => form.locator('#e-email').textContent(), { timeout: 15_000 }).toMatch(/e-mail/i);
    expect(await form.locator('[name="email"]').getAttribute('aria-invalid')).toBe('true');
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(violations).toEqual([]);
  }, 30_000);
  it('updates the agenda live under the CSP: an edit through the API marks the session, axe clean after', async () => {
    const agenda = page.locator('podium-agenda').first();
    const href = await agenda.locator('.session .title a').first().getAttribute('href');
    const activityID = /(\d+)$/.exec(href!)![1];
    const session = agenda.locator('.session', { has: page.locator(`a[href="${href}"]`) });
    const moved = await platform.admin('activity.delay', { activityID, minutes: 5, subsequent: 0 });
    expect(moved.data).toHaveLength(1);
    // Spanish since the test above: "Movida", at its new time.
    await expect.poll(() => session.textContent(), { timeout: 5000 }).toContain('Movida');
    expect(await session.locator('.when').textContent()).toContain(':05');
    expect(await agenda.locator('[part="summary"]').textContent()).toContain(': Movida');
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(violations).toEqual([]);
    // axe after the update (evaluated by the test; its own checks are not the page's scripts).
    await page.evaluate(readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8'));
    const found = await agenda.evaluate((el) =>
      (
        window as unknown as {
          axe: { run(el: Element): Promise<{ violations: { id: string; nodes: { html: string }[] }[] }> };
        }
      ).axe
        .run(el)
        .then((r) => r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`)),
    );
    expect(found).toEqual([]);
  }, 30_000);
});
