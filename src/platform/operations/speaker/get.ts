import { defineOperation, q } from '../../table.ts';
import { id } from '../../schemas.ts';
import { notFound } from '../../errors.ts';
import { grantParam, objectReader } from '../site-read.ts';
import { speakerByID, speakerRecord } from '../../domain/speaker/repository.ts';

/**
 * Podium extension: reads one speaker. Public like speaker.find: members of the event read it with
 * their token; anyone else when the event is visible and public, or private with a grant. Only the
 * event's admins see `email`.
 */
export default defineOperation({
  name: 'speaker.get',
  summary: 'Reads one speaker (public for readable events).',
  methods: ['GET'],
  params: { speakerID: q(id, 'the speaker'), grant: grantParam },
  auth: { kind: 'public' },
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const row = await speakerByID(ctx.db, p.speakerID);
    if (!row) throw notFound('speaker');
    const { admin } = await objectReader(ctx, 'speaker', row.eventID, p.grant);
    return [speakerRecord(row, admin)];
  },
});
