// The site's build as `podium start` runs it (src/site/build.ts): never in the server's own process.
// The widgets' build loads Zopfli, whose Emscripten glue adds process-wide handlers that abort on any
// unhandled rejection; run in the server, a stray rejection would have ended it.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWidgetsApart } from '../../src/site/build.ts';
import { ROOT } from './harness.ts';

describe('the site build', () => {
  it("builds the widgets in a process of its own, leaving the caller's handlers as they were", async () => {
    const handlers = () => [process.listeners('unhandledRejection'), process.listeners('uncaughtException')];
    const before = handlers();
    const outdir = mkdtempSync(join(tmpdir(), 'podium-widgets-'));
    await buildWidgetsApart(ROOT, true, outdir);
    for (const file of ['podium.js', 'podium.js.gz', 'podium.js.br', 'podium-registration.js'])
      expect(existsSync(join(outdir, file)), file).toBe(true);
    expect(handlers()).toEqual(before);
  }, 60_000);
});
