// The platform works its job queue in-process (issue 11, item 3: `podium start` runs workers by
// default), or only adds jobs with JOBS_WORK=0 for `podium worker` processes to run. Both stores.
import { afterEach, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

describe.each(STORES)('the job queue of a platform on %s', (kind) => {
  let p: TestPlatform | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  /**
   * A change of three days ago, a newer one, and a change.prune job added in a committed write; whether
   * the old row goes. The newer change is there because the prune always keeps the newest change, however
   * old (src/platform/resources/change/log.ts): alone, the old row would stay whether the job ran or not.
   */
  async function pruned(env: Record<string, string>): Promise<boolean> {
    p = await startTestPlatform(kind, { CHANGE_LOG_DAYS: '1', JOBS_POLL_MS: '50', ...env });
    const db = p.db;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('change')
        .values([
          { at: Date.now() - 3 * 86_400_000, operation: 'test.old', kind: 'test' },
          { at: Date.now(), operation: 'test.new', kind: 'test' },
        ])
        .execute();
      await p!.platform.jobs.queue.add(trx, 'change.prune', {});
    });
    const old = () => db.selectFrom('change').select('changeID').where('operation', '=', 'test.old').execute();
    for (let i = 0; i < 40 && (await old()).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    return (await old()).length === 0;
  }

  it('runs the jobs its writes add', async () => {
    expect(await pruned({})).toBe(true);
    // The window's change stays.
    const kept = await p!.db.selectFrom('change').select('operation').where('kind', '=', 'test').execute();
    expect(kept.map((r) => r.operation)).toEqual(['test.new']);
  });

  it('with JOBS_WORK=0 only adds them', async () => {
    expect(await pruned({ JOBS_WORK: '0' })).toBe(false);
  });
});
