import { defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { sponsorByID, sponsorRecord } from '../../domain/sponsor/repository.ts';

/** Podium extension: removes a sponsor (and its links to activities); answers the removed record. */
export default defineOperation({
  name: 'sponsor.remove',
  summary: 'Removes a sponsor from its event.',
  methods: ['GET'],
  params: { sponsorID: q(id, 'the sponsor') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['sponsorID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = (await sponsorByID(ctx.db, p.sponsorID))!;
    await ctx.db.deleteFrom('sponsor').where('sponsorID', '=', p.sponsorID).execute();
    return [sponsorRecord(row, true)];
  },
});
