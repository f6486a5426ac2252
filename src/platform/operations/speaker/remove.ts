import { defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { speakerByID, speakerRecord } from '../../domain/speaker/repository.ts';

/** Podium extension: removes a speaker (and its links to activities); answers the removed record. */
export default defineOperation({
  name: 'speaker.remove',
  summary: 'Removes a speaker from its event.',
  methods: ['GET'],
  params: { speakerID: q(id, 'the speaker') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['speakerID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = (await speakerByID(ctx.db, p.speakerID))!;
    await ctx.db.deleteFrom('speaker').where('speakerID', '=', p.speakerID).execute();
    return [speakerRecord(row, true)];
  },
});
