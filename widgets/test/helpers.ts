// Helpers of the widget component tests (run in the browser by web-test-runner with mocha).
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { $grants } from '../src/stores/grant.ts';

declare global {
  function describe(name: string, fn: () => void): void;
  function it(name: string, fn: () => Promise<void> | void): void;
  function before(fn: () => Promise<void> | void): void;
  function after(fn: () => Promise<void> | void): void;
  function beforeEach(fn: () => Promise<void> | void): void;
  function afterEach(fn: () => Promise<void> | void): void;
  const axe: {
    run(
      context: Element,
      options: object,
    ): Promise<{ violations: { id: string; help: string; nodes: { target: unknown; failureSummary?: string }[] }[] }>;
  };
}

export interface PodiumInfo {
  api: string;
  privateEventID: number;
  accessCode: string;
  /** The event with a custom field of every type (feedbackID by type). */
  form: { eventID: number; fields: Record<string, string> };
}

/** The test platform. */
export const podium = (): Promise<PodiumInfo> => executeServerCommand('podium-info') as Promise<PodiumInfo>;

/**
 * The set-up every widget test file shares: the test platform's info (filled in before the first test),
 * and after each test the mounted widgets removed, storage cleared and the page's grants forgotten.
 */
export function setUp(): PodiumInfo {
  const info = {} as PodiumInfo;
  before(async () => {
    Object.assign(info, await podium());
  });
  afterEach(() => {
    cleanup();
    $grants.set({});
  });
  return info;
}

/** A call as the demo organizer (made by the test runner, not the page). */
export const admin = (name: string, query: Record<string, string | number> = {}, body?: Record<string, string>) =>
  executeServerCommand('podium-admin', { name, query, body }) as Promise<{
    status: number;
    text: string;
    data: Record<string, unknown>[];
  }>;

export function assert(condition: unknown, message = 'assertion failed'): asserts condition {
  if (!condition) throw new Error(message);
}

export function equal<T>(actual: T, expected: T, message = ''): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${message ? `${message}: ` : ''}expected ${e}, got ${a}`);
}

/** Waits until `fn` answers something truthy (checked every 20 ms), which it answers. */
export async function until<T>(fn: () => T, what = 'condition', timeout = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const mounted: Element[] = [];

/** Puts `html` in the page and answers its first element (removed after each test). */
export function mount<T extends Element>(html: string): T {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  mounted.push(host);
  return host.firstElementChild as T;
}

export function cleanup(): void {
  for (const el of mounted.splice(0)) el.remove();
  sessionStorage.clear();
  localStorage.clear();
}

/** The element's shadow root (every Podium widget has an open one). */
export const shadow = (el: Element): ShadowRoot => el.shadowRoot!;
export const $ = <T extends Element = HTMLElement>(el: Element, selector: string): T | null =>
  shadow(el).querySelector<T>(selector);
export const $$ = <T extends Element = HTMLElement>(el: Element, selector: string): T[] => [
  ...shadow(el).querySelectorAll<T>(selector),
];

/** Runs axe on the element (its shadow DOM included); fails listing every violation. */
export async function expectAccessible(el: Element): Promise<void> {
  const result = await axe.run(el, {
    // Page-level rules say nothing about a component.
    rules: {
      region: { enabled: false },
      'page-has-heading-one': { enabled: false },
      'landmark-one-main': { enabled: false },
    },
  });
  if (result.violations.length > 0) {
    const lines = result.violations.map(
      (v) =>
        `${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n')}`,
    );
    throw new Error(`accessibility violations:\n${lines.join('\n')}`);
  }
}

/**
 * Saves what the visitor sees (the viewport) at each width for review, as
 * test-results/screenshots/<name>-<width>.png; `show` runs at each width first (e.g. to scroll). The
 * viewport is left at the last width.
 */
export async function screenshots(name: string, show: () => Promise<void> | void, widths = [390, 1280]): Promise<void> {
  for (const width of widths) {
    await setViewport({ width, height: width < 600 ? 844 : 800 });
    await show();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await executeServerCommand('podium-screenshot', { name });
  }
}

/** The page's nodes of `roles` (textbox, combobox…) as Chromium exposes them: name, and said invalid. */
export const accessibleNodes = (roles: string[]) =>
  executeServerCommand('podium-ax', { roles }) as Promise<{ role: string; name: string; invalid: boolean }[]>;

/** Types into a control as a visitor does (value, then input and change events). */
export function type(control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}

export function check(box: HTMLInputElement, on = true): void {
  if (box.checked !== on) box.click();
}

/** Every fetch the page makes from now on (URL and method), until restored. */
export function recordFetches(): { calls: { url: string; method: string; body: string }[]; restore: () => void } {
  const original = window.fetch;
  const calls: { url: string; method: string; body: string }[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method ?? 'GET', body: String(init?.body ?? '') });
    return original(input, init);
  };
  return { calls, restore: () => (window.fetch = original) };
}
