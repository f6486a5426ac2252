// How every test and bench of ours launches Debian's Chromium (playwright-core cannot download its own
// here): the site's and widgets' browser tests, the web-test-runner config and bench/phone.mjs. Plain
// .mjs so that the .mjs configs and benches import it as well as the TypeScript tests.

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
