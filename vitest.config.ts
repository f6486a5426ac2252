import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: one worker per core; each test file gets its own SQLite file and PostgreSQL schema.
    maxWorkers: 2,
    // expect.poll waits for something a server or a browser does: 1 s (vitest's default) is too short
    // for a headless Chromium's first answer on a loaded 2-core machine (CI saw a page's text read take
    // longer than that once); a poll that succeeds returns as soon as it does.
    expect: { poll: { timeout: 10_000 } },
  },
});
