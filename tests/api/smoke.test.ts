import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';

describe.each(STORES)('world on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());
  it('builds', async () => {
    expect(w.eventA.eventID).toMatch(/^\d+$/);
    const rows = await p.ok('event.get', { token: w.attendee, query: { eventID: w.eventA.eventID } });
    expect(rows[0].approved).toBe('1');
  });
});
