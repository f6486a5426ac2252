import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: one worker per core; each test file gets its own SQLite file and PostgreSQL schema.
    maxWorkers: 2,
  },
});
