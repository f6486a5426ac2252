// The embed configurator (/{company}/{event}/embed) in Chromium against `podium start` with the demo:
// every widget can be picked, its attributes set, the preview follows, the copy button writes the
// snippet (or selects it when the clipboard refuses), nothing scrolls sideways on a 390 px phone, axe
// finds nothing, the page works as a form without JavaScript, and the event's pages link to it.
// Screenshots: test-results/screenshots/embed-<widget>-<width>.png.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, checkAndShoot, launchChromium, skipDemoImages, watchProblems } from './chromium.ts';
import { startPodium, type Podium } from './harness.ts';

let p: Podium;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  [p, browser] = await Promise.all([startPodium(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await skipDemoImages(c);
  return watchProblems(c, problems, { consoleErrors: true });
}

const code = (page: Page) => page.locator('[data-embed-code]').textContent();

/**
 * Types `typed` into `field` (no error while typing, nothing in the snippet), then leaves it: marked
 * invalid, with a visible message tied to it (returned), the value kept as typed, still out of the snippet.
 */
async function refusedOnLeaving(page: Page, field: Locator, typed: string, attribute: string): Promise<Locator> {
  await field.fill(typed);
  expect(await code(page)).not.toContain(`${attribute}=`);
  expect(await field.getAttribute('aria-invalid')).toBe(null);
  await field.blur();
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const error = page.locator(`#${await field.getAttribute('aria-describedby')}`);
  expect(await error.isVisible()).toBe(true);
  // Said when it shows (the field was left: nothing else would read it out).
  expect(await error.getAttribute('role')).toBe('alert');
  expect(await field.inputValue()).toBe(typed);
  expect(await code(page)).not.toContain(`${attribute}=`);
  return error;
}
/** The preview's widget has drawn (its shadow root holds more than the loading state). */
const drawn = (page: Page, selector: string) =>
  expect.poll(() => page.locator(`[data-embed-preview] ${selector}`).count(), { timeout: 15_000 }).toBeGreaterThan(0);

describe('the embed configurator', () => {
  it.each([
    ['registration', 'Registration form', 'podium-registration input[name="email"]'],
    ['agenda', 'Program', 'podium-agenda [part~="session"]'],
    ['gate', 'Access-code gate (private events)', 'podium-access-gate podium-registration input[name="email"]'],
  ])(
    '%s: axe finds nothing, no sideways scroll at 390 px, screenshots',
    async (widget, label, ready) => {
      const c = await newContext();
      const page = await c.newPage();
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto(`${p.site}/demo/summit/embed`);
        await page.getByRole('radio', { name: label }).check();
        if (widget === 'agenda') await page.locator('select[name="agenda:view"]').selectOption('grid');
        // The gate holding the registration form (the program inside it is the agenda's case).
        if (widget === 'gate') {
          await page.getByRole('checkbox', { name: 'Program' }).uncheck();
          await page.getByRole('checkbox', { name: 'Registration form' }).check();
        }
        await drawn(page, ready);
        // "A registration sent from it is a real registration": said where the registration form is (the
        // gate here holds it), not of the program.
        expect(await page.getByText('This is the real widget').isVisible()).toBe(widget !== 'agenda');
        await checkAndShoot(page, `embed-${widget}`, width, problems);
        // Every box as wide as the others, whatever its label's length (a wrapping label squeezed one).
        const boxes = await page
          .locator('.embed-settings:not([hidden]) .embed-check input')
          .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
        expect(new Set(boxes).size, `${width} px: ${boxes.join(', ')}`).toBeLessThanOrEqual(1); // the gate has none
      }
      await c.close();
      expect(problems).toEqual([]);
    },
    120_000,
  ); // axe over the whole program, twice

  it('offers all three widgets, names the event by its nickname, and the preview follows each change', async () => {
    const c = await newContext();
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    const site = p.site;
    const api = p.api;
    // The default: the registration form, in the event's colours (only those not the widgets' own).
    expect(await code(page)).toBe(
      `<script type="module" src="${site}/widgets/podium-registration.js"></script>\n` +
        `<style>\n  podium-registration {\n    --podium-color-primary: #4f46e5;\n` +
        `    --podium-color-primary-text: #4f46e5;\n    --podium-color-focus: #4f46e5;\n  }\n</style>\n` +
        `<podium-registration api="${api}" event="demo/summit"></podium-registration>\n`,
    );
    await drawn(page, 'podium-registration input[name="email"]');

    await page.getByRole('radio', { name: 'Program' }).check();
    await page.locator('select[name="agenda:view"]').selectOption('grid');
    await page.getByRole('checkbox', { name: 'Engineering' }).check();
    await page.getByRole('checkbox', { name: 'Tuesday 22 December' }).check();
    await page.locator('select[name="locale"]').selectOption('pt');
    await page.getByRole('checkbox', { name: /Hide the filters/ }).check();
    await page.locator('input[name="main-color"]').fill('#1d4ed8'); // the widgets' own: no style block
    expect(await code(page)).toBe(
      `<script type="module" src="${site}/widgets/podium-agenda.js"></script>\n` +
        `<podium-agenda api="${api}" event="demo/summit" locale="pt" view="grid" days="2037-12-22" tags="2" hide-controls site="${site}/demo/summit"></podium-agenda>\n`,
    );
    // The preview is that element, drawn: a grid of that day, in Portuguese, without controls.
    const agenda = page.locator('[data-embed-preview] > podium-agenda');
    await expect.poll(() => agenda.getAttribute('view')).toBe('grid');
    expect(await agenda.getAttribute('tags')).toBe('2');
    await drawn(page, 'podium-agenda [part~="grid"]');
    // A grid indeed: the preview is as wide as the page, not a column where the grid reads as a list.
    expect(
      await agenda
        .locator('[part~="grid"]')
        .first()
        .evaluate((e) => getComputedStyle(e).display),
    ).toBe('table');
    await expect.poll(() => agenda.locator('[part~="grid"] caption').first().textContent()).toMatch(/22 de dezembro/);
    expect(await agenda.locator('[part~="toolbar"]').count()).toBe(0);
    // Changed again: the same element follows its attributes.
    await page.locator('select[name="agenda:view"]').selectOption('list');
    await expect.poll(() => agenda.getAttribute('view')).toBe(null);
    await expect.poll(() => agenda.locator('[part~="grid"]').count()).toBe(0);
    // The choice is in the address: a reload (or a shared link) shows the same, from the server.
    await page.reload();
    expect(await code(page)).toContain(
      `locale="pt" days="2037-12-22" tags="2" hide-controls site="${site}/demo/summit">`,
    );
    // Sessions link to their pages on this site unless the box is unticked.
    await expect
      .poll(() => agenda.locator(`a[href^="${site}/demo/summit/schedule/"]`).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: /Link each session/ }).uncheck();
    expect(await code(page)).toContain('tags="2" hide-controls></podium-agenda>');
    await expect.poll(() => agenda.getAttribute('site')).toBe(null);
    expect(await page.getByRole('radio', { name: 'Program' }).isChecked()).toBe(true);

    await page.getByRole('radio', { name: 'Access-code gate (private events)' }).check();
    await page.getByRole('checkbox', { name: 'Registration form' }).check();
    expect(await code(page)).toBe(
      `<script type="module" src="${site}/widgets/podium.js"></script>\n` +
        `<podium-access-gate api="${api}" event="demo/summit" locale="pt">\n` +
        `  <podium-agenda api="${api}" event="demo/summit" locale="pt"></podium-agenda>\n` +
        `  <podium-registration api="${api}" event="demo/summit" locale="pt"></podium-registration>\n` +
        `</podium-access-gate>\n`,
    );
    await drawn(page, 'podium-access-gate > podium-registration');
    // The settings of the other widgets are hidden while the gate is chosen.
    expect(await page.locator('select[name="agenda:view"]').isVisible()).toBe(false);
    await c.close();
    expect(problems).toEqual([]);
  });

  it('has a control for every attribute each element declares (but api, event, grant, invite, now)', async () => {
    const c = await newContext();
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    const missing = await page.evaluate(async () => {
      const form = document.querySelector('form[data-embed-form]') as HTMLFormElement;
      const out: string[] = [];
      for (const [id, tag] of [
        ['registration', 'podium-registration'],
        ['agenda', 'podium-agenda'],
        ['gate', 'podium-access-gate'],
      ]) {
        const element = (await customElements.whenDefined(tag)) as unknown as {
          elementProperties: Map<string, { attribute?: string | boolean; state?: boolean }>;
        };
        for (const [key, d] of element.elementProperties) {
          if (d.state || d.attribute === false) continue;
          const name = typeof d.attribute === 'string' ? d.attribute : key.toLowerCase();
          if (['api', 'event', 'grant', 'invite', 'now'].includes(name)) continue;
          const field = name === 'locale' ? 'locale' : `${id}:${name}`;
          if (!form.elements.namedItem(field)) out.push(`${tag} ${name}`);
        }
      }
      return out;
    });
    expect(missing).toEqual([]);
    await c.close();
  });

  it('copies the snippet with the Clipboard API and says so to screen readers', async () => {
    const c = await newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    await page.getByRole('radio', { name: 'Program' }).check();
    await page.locator('select[name="agenda:view"]').selectOption('grid');
    const status = page.locator('[data-embed-status]');
    expect(await status.getAttribute('role')).toBe('status');
    expect(await status.getAttribute('aria-live')).toBe('polite');
    await page.getByRole('button', { name: 'Copy the code' }).click();
    await expect.poll(() => status.textContent()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      `<script type="module" src="${p.site}/widgets/podium-agenda.js"></script>\n` +
        `<style>\n  podium-agenda {\n    --podium-color-primary: #4f46e5;\n` +
        `    --podium-color-primary-text: #4f46e5;\n    --podium-color-focus: #4f46e5;\n  }\n</style>\n` +
        `<podium-agenda api="${p.api}" event="demo/summit" view="grid" site="${p.site}/demo/summit"></podium-agenda>\n`,
    );
    // A change clears the old status.
    await page.locator('select[name="agenda:view"]').selectOption('list');
    expect(await status.textContent()).toBe('');
    await c.close();
  });

  it('selects the snippet when the clipboard refuses', async () => {
    const c = await newContext();
    await c.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
      });
    });
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    await page.getByRole('button', { name: 'Copy the code' }).click();
    await expect
      .poll(() => page.locator('[data-embed-status]').textContent())
      .toBe('The code is selected: press Ctrl+C (⌘C on a Mac) to copy it.');
    expect(await page.evaluate(() => getSelection()?.toString().trimEnd())).toBe((await code(page))?.trimEnd());
    await c.close();
  });

  it('keeps the code in view beside the form at 1280 px, never over the preview, whose fields take clicks', async () => {
    const c = await newContext({ viewport: { width: 1280, height: 800 } });
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    await drawn(page, 'podium-registration input[name="email"]');
    // Half-way down the form, the code is still in view (sticky).
    await page.evaluate(() => window.scrollTo(0, 400));
    const codeBox = () => page.locator('.embed-code').boundingBox();
    expect((await codeBox())!.y).toBeGreaterThanOrEqual(0);
    // The preview in view: the code has stayed above it, and a click on its first field lands there.
    const first = page.locator('[data-embed-preview] podium-registration input').first();
    await first.scrollIntoViewIfNeeded();
    const [code, live] = [(await codeBox())!, (await page.locator('.embed-live').boundingBox())!];
    expect(code.y + code.height).toBeLessThanOrEqual(live.y);
    await first.click();
    expect(await first.evaluate((el) => el.getRootNode() instanceof ShadowRoot && (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true); // prettier-ignore
    await c.close();
  });

  it('previews a grid program on a 390 px phone as the list, its toggles all in view and List pressed', async () => {
    const c = await newContext({ viewport: { width: 390, height: 844 } });
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed?widget=agenda&agenda:sent=1&agenda:view=grid`);
    await drawn(page, 'podium-agenda [part~="session"]');
    const agenda = page.locator('[data-embed-preview] > podium-agenda');
    expect(await agenda.getAttribute('view')).toBe('grid');
    expect(await agenda.locator('[part~="grid"]').count()).toBe(0);
    expect(await agenda.getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe('true');
    const outside = await agenda.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="toolbar"] .button')]
        .filter((b) => b.offsetParent !== null)
        .filter((b) => b.getBoundingClientRect().left < box.left || b.getBoundingClientRect().right > box.right)
        .map((b) => b.textContent!.trim());
    });
    expect(outside).toEqual([]);
    await c.close();
  });

  it("loads the program's grid when it first shows, and offers Try again when its code cannot be fetched", async () => {
    // The grid's code is a chunk of its own (widgets/src/components/agenda/grid.ts). A failed fetch is a
    // console error: this context does not count those.
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await skipDemoImages(c);
    let refuse = true;
    await c.route('**/widgets/chunks/grid-*.js', (route) => (refuse ? route.abort() : route.continue()));
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed?widget=agenda&agenda:view=grid`);
    const status = page.locator('[data-embed-preview] > podium-agenda [part="status"]');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/could not be loaded/);
    refuse = false;
    await status.getByRole('button', { name: 'Try again' }).click();
    await drawn(page, 'podium-agenda [part~="grid"]');
    // The focus is back on the toggle that asked for the grid, not at the agenda's top.
    const focused = () =>
      page.evaluate(() => document.querySelector('[data-embed-preview] > podium-agenda')!.shadowRoot!.activeElement?.textContent?.trim()); // prettier-ignore
    await expect.poll(focused).toMatch(/Grid$/);
    await c.close();
  });

  it('keeps a malformed prefill e-mail out of the snippet and says why next to the field, at 390 px', async () => {
    const c = await newContext({ viewport: { width: 390, height: 844 } });
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    await drawn(page, 'podium-registration input[name="email"]');
    const email = page.locator('input[name="registration:email"]');
    const message = 'This is not an e-mail address (like name@example.com): it stays out of the code until it is one.';
    // Typing: no error yet (the address is not finished), and nothing half-typed in the snippet. Leaving
    // the field: it says why, tied to the field, and keeps what was typed.
    const error = await refusedOnLeaving(page, email, 'ada@example', 'email');
    expect(await error.textContent()).toContain(message);
    expect(await page.locator('[data-embed-preview] > podium-registration').getAttribute('email')).toBe(null);
    // Beside the field, within the phone's width.
    const [field, box] = await Promise.all([email.boundingBox(), error.boundingBox()]);
    expect(box!.y).toBeGreaterThan(field!.y);
    expect(box!.y - (field!.y + field!.height)).toBeLessThan(24);
    await checkAndShoot(page, 'embed-email-invalid', 390, problems);
    // The same address from the page address (a reload, a shared link): the same, from the server.
    await page.reload();
    expect(await email.inputValue()).toBe('ada@example');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await code(page)).not.toContain('email=');
    // Made whole, the error goes as it is typed and the address enters the snippet.
    await email.fill('ada@example.com');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe(null);
    expect(await email.getAttribute('aria-describedby')).toBe(null);
    expect(await error.isVisible()).toBe(false);
    expect(await code(page)).toContain('email="ada@example.com"');
    await expect
      .poll(() => page.locator('[data-embed-preview] > podium-registration').getAttribute('email'))
      .toBe('ada@example.com');
    await c.close();
  });

  it('checks an "Other attributes" value by the rule of its type and keeps a refused one out of the snippet and the preview', async () => {
    const c = await newContext();
    // An attribute the page has no words for (a Number one, as a later widget may declare): added to the
    // registration form's declared properties before it is defined, so the page offers it under "Other
    // attributes" (today's widgets declare none beyond the page's own).
    await c.addInitScript(() => {
      const define = customElements.define.bind(customElements);
      customElements.define = (name, constructor, options) => {
        if (name === 'podium-registration')
          (constructor as unknown as { createProperty(n: string, o: object): void }).createProperty('seats', {
            type: Number,
          });
        define(name, constructor, options);
      };
    });
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    await drawn(page, 'podium-registration input[name="email"]');
    const seats = page.getByRole('textbox', { name: 'seats' });
    const preview = page.locator('[data-embed-preview] > podium-registration');
    await expect.poll(() => seats.count()).toBe(1);
    // Typing: no error yet, and nothing that is not a number in the snippet or the preview. Leaving the
    // field: it says why, tied to the field, and keeps what was typed.
    const error = await refusedOnLeaving(page, seats, 'two', 'seats');
    expect(await error.textContent()).toBe(
      'This is not a number (like 12 or 2.5): it stays out of the code until it is one.',
    );
    expect(await preview.getAttribute('seats')).toBe(null);
    expect(await axe(page)).toEqual([]);
    // From the page address (a reload, a shared link): the same value in the field, the same error.
    await page.reload();
    await expect.poll(() => seats.inputValue()).toBe('two');
    await expect.poll(() => seats.getAttribute('aria-invalid')).toBe('true');
    expect(await code(page)).not.toContain('seats=');
    // Made a number, the error goes as it is typed and the value enters the snippet and the preview.
    await seats.fill('2');
    await expect.poll(() => seats.getAttribute('aria-invalid')).toBe(null);
    expect(await seats.getAttribute('aria-describedby')).toBe(null);
    expect(await error.isVisible()).toBe(false);
    expect(await code(page)).toContain(`<podium-registration api="${p.api}" event="demo/summit" seats="2">`);
    await expect.poll(() => preview.getAttribute('seats')).toBe('2');
    expect(await axe(page)).toEqual([]);
    await c.close();
    expect(problems).toEqual([]);
  });

  it('works as a form without JavaScript', async () => {
    const c = await newContext({ javaScriptEnabled: false });
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/embed`);
    expect(await code(page)).toContain('<podium-registration api=');
    expect(await page.getByRole('button', { name: 'Copy the code' }).isVisible()).toBe(false);
    await page.getByRole('radio', { name: 'Program' }).check();
    await page.locator('select[name="agenda:view"]').selectOption('grid');
    await page.getByRole('checkbox', { name: 'Main Hall' }).check();
    await page.getByRole('button', { name: 'Update the code' }).click();
    await page.waitForURL(/widget=agenda/);
    expect(await code(page)).toContain(
      `<podium-agenda api="${p.api}" event="demo/summit" view="grid" rooms="Main Hall" site="${p.site}/demo/summit"></podium-agenda>`,
    );
    expect(await page.locator('select[name="agenda:view"]').inputValue()).toBe('grid');
    // A malformed prefill e-mail: kept in its field, described by why, out of the snippet.
    await page.getByRole('radio', { name: 'Registration form' }).check();
    await page.locator('input[name="registration:email"]').fill('ada@example');
    await page.getByRole('button', { name: 'Update the code' }).click();
    await page.waitForURL(/widget=registration/);
    const email = page.locator('input[name="registration:email"]');
    expect(await email.inputValue()).toBe('ada@example');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await email.getAttribute('aria-describedby')}`).textContent()).toContain(
      'This is not an e-mail address',
    );
    expect(await code(page)).toBe(
      `<script type="module" src="${p.site}/widgets/podium-registration.js"></script>\n` +
        `<style>\n  podium-registration {\n    --podium-color-primary: #4f46e5;\n` +
        `    --podium-color-primary-text: #4f46e5;\n    --podium-color-focus: #4f46e5;\n  }\n</style>\n` +
        `<podium-registration api="${p.api}" event="demo/summit"></podium-registration>\n`,
    );
    await c.close();
  });

  it("is linked from the event's pages", async () => {
    const c = await newContext();
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/summit/schedule`);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Embed this event' }).click();
    await page.waitForURL(/\/demo\/summit\/embed$/);
    expect(await page.locator('h1').textContent()).toBe('Embed this event');
    await c.close();
  });

  it("starts a private event with the gate, previews it with the visitor's grant, and never puts the grant in the snippet", async () => {
    const c = await newContext();
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/partners/embed`);
    await page.getByLabel('Access code').fill(p.accessCode);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.waitForURL(/\/demo\/partners\/embed$/);
    expect(await page.getByRole('radio', { name: 'Access-code gate (private events)' }).isChecked()).toBe(true);
    expect(await page.getByText('This event is private: on another page').count()).toBe(1);
    const snippet = await code(page);
    expect(snippet).toContain(`<podium-access-gate api="${p.api}" event="demo/partners">`);
    await drawn(page, 'podium-access-gate podium-agenda [part~="session"]');
    const grant = await page.locator('[data-embed-preview] podium-agenda').getAttribute('grant');
    expect(grant).toBeTruthy();
    expect(await code(page)).not.toContain('grant');
    expect(await axe(page)).toEqual([]);
    await c.close();
  });
});
