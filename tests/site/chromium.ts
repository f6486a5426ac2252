// What the site's Chromium tests share: launching the browser (our launch options), watching a context
// for CSP refusals and page errors, axe, and the phone/desktop check that also saves the screenshot
// for review in test-results/screenshots/.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumLaunchOptions } from '../helpers/chromium.mjs';
import { ROOT } from './harness.ts';

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
export const SHOTS = join(ROOT, 'test-results/screenshots');

/** Debian's Chromium with our options (plus a caller's flags); the screenshot folder made first. */
export function launchChromium(...extraArgs: string[]): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch(chromiumLaunchOptions(...extraArgs));
}

/**
 * Collects into `problems` every CSP refusal and uncaught page error of the context (and, with
 * consoleErrors, every console error too), for the tests to expect none.
 */
export function watchProblems(c: BrowserContext, problems: string[], { consoleErrors = false } = {}): BrowserContext {
  c.on('console', (m) => {
    // With the address: "Failed to load resource" alone does not say which.
    const where = m.location().url;
    if ((consoleErrors && m.type() === 'error') || /Content Security Policy|Refused to/.test(m.text()))
      problems.push(where ? `${m.text()} (${where})` : m.text());
  });
  c.on('weberror', (e) => problems.push(String(e.error())));
  return c;
}

/** Demo images live on hosts that do not exist: answer them empty instead of waiting for DNS. */
export async function skipDemoImages(c: BrowserContext): Promise<void> {
  await c.route(/images\.podium\.test/, (route) => route.fulfill({ status: 404, body: '' }));
}

/** axe-core's violations on the page, one line each (empty when clean). */
export async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE); // evaluated by the test, not injected into the page (the CSP forbids that)
  const result = await page.evaluate(() =>
    (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: { html: string }[] }[] }> } }
    ).axe.run(),
  );
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 200)).join(' | ')}`);
}

/** axe clean, no sideways scroll at this width, no problem collected; and the page's screenshot for review. */
export async function checkAndShoot(page: Page, name: string, width: number, problems: string[]): Promise<void> {
  expect(await axe(page), `${name} at ${width}px`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  expect(problems).toEqual([]);
}
