// How every test and bench of ours launches Debian's Chromium (playwright-core cannot download its own
// here): the site's and widgets' browser tests, the web-test-runner config and bench/phone.mjs. Plain
// .mjs so that the .mjs configs and benches import it as well as the TypeScript tests. Also what
// Chromium tells a screen reader of a page's controls (accessibleNodes), for both kinds of tests.

/** Headless, without the background traffic (updates, sync, first-run) that would race a measure. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
];

/**
 * The launch options for playwright's chromium.launch (or @web/test-runner-playwright's launchOptions).
 * @param {...string} extraArgs flags a caller needs besides ours (host-resolver rules, say)
 * @returns {{ executablePath: string, args: string[] }}
 */
export function chromiumLaunchOptions(...extraArgs) {
  return { executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...extraArgs] };
}

/**
 * A playwright page's nodes of `roles` (e.g. textbox, combobox) as Chromium exposes them, in document
 * order: the name and whether it is said to be invalid — what a screen reader says, which the DOM does
 * not always tell (a space between inline nodes can be dropped from a name; a required choice left
 * empty is invalid unless aria-invalid="false").
 * @param {import('playwright-core').Page} page
 * @param {string[]} roles
 * @returns {Promise<{ role: string, name: string, invalid: boolean }[]>}
 */
export async function accessibleNodes(page, roles) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    return nodes
      .filter((n) => roles.includes(n.role?.value))
      .map((n) => ({
        role: n.role.value,
        name: n.name?.value ?? '',
        invalid: (n.properties ?? []).some((p) => p.name === 'invalid' && p.value.value !== 'false'),
      }));
  } finally {
    await cdp.detach();
  }
}
