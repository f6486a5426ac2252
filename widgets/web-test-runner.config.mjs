// Component tests of the widgets: @web/test-runner with Playwright on Debian's Chromium. Each
// widgets/src/components/**/*.test.ts is bundled by esbuild (TypeScript, the shared modules and Lit as
// published, every language's messages from the catalogue) and run with mocha in its own page; axe-core
// is on every page for the accessibility checks. A real platform (API only, demo data, fresh SQLite)
// starts with the runner; tests reach it through the commands `podium-info` and `podium-admin` (see
// test/helpers.ts).
//
//   npx wtr --config widgets/web-test-runner.config.mjs

import { build } from 'esbuild';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { accessibleNodes, chromiumLaunchOptions } from '../tests/helpers/chromium.mjs';
import { registrationFixture, startDemoPlatform } from '../tests/widgets/demo-platform.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Serves each test file as one esbuild bundle. */
function bundleTests() {
  return {
    name: 'podium-bundle-tests',
    async serve(context) {
      if (!context.path.endsWith('.test.ts')) return undefined;
      const result = await build({
        absWorkingDir: root,
        entryPoints: [join(root, context.path)],
        bundle: true,
        format: 'esm',
        target: 'es2022',
        write: false,
        sourcemap: 'inline',
        external: ['/__web-dev-server__web-socket.js'],
        logLevel: 'error',
      });
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}

/** The platform the tests talk to, and the commands that reach it from the page. */
function podiumPlatform() {
  let platform;
  let fixture;
  return {
    name: 'podium-platform',
    async serverStart() {
      platform = await startDemoPlatform();
      fixture = await registrationFixture(platform);
    },
    async serverStop() {
      await platform?.stop();
    },
    async executeCommand({ command, payload, session }) {
      if (command === 'podium-screenshot') return screenshot(session, payload.name);
      if (command === 'podium-ax') return accessibleNodes(session.browser.getPage(session.id), payload.roles);
      if (command === 'podium-info')
        return {
          api: platform.url,
          privateEventID: platform.privateEventID,
          accessCode: platform.accessCode,
          form: fixture,
        };
      if (command === 'podium-admin') return platform.admin(payload.name, payload.query, payload.body);
      return undefined;
    },
  };
}

/**
 * The page as the visitor sees it now (the viewport, not the whole page), for review:
 * test-results/screenshots/<name>-<viewport width>.png (git-ignored).
 */
async function screenshot(session, name) {
  const page = session.browser.getPage(session.id);
  const dir = join(root, 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}-${page.viewportSize().width}.png`);
  await page.screenshot({ path });
  return path;
}

export default {
  rootDir: root,
  files: ['widgets/src/**/*.test.ts'],
  nodeResolve: false,
  concurrency: 2,
  testsFinishTimeout: 300_000,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 20_000 } },
  plugins: [bundleTests(), podiumPlatform()],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: chromiumLaunchOptions(),
      // A visitor far from the demo's Lisbon (CI machines run in UTC, whose clock Lisbon's is in winter):
      // the agenda's "Event time / My time" has something to switch.
      createBrowserContext: ({ browser }) => browser.newContext({ timezoneId: 'America/Sao_Paulo' }),
    }),
  ],
  testRunnerHtml: (testFramework) => `<!doctype html>
<html lang="en">
  <head><script src="/node_modules/axe-core/axe.min.js"></script></head>
  <body><script type="module" src="${testFramework}"></script></body>
</html>`,
};
