import { defineOperation, q } from '../../table.ts';
import { id } from '../../schemas.ts';
import { notFound } from '../../errors.ts';
import { grantParam, objectReader } from '../site-read.ts';
import { sponsorByID, sponsorRecord } from '../../domain/sponsor/repository.ts';

/**
 * Podium extension: reads one sponsor. Public like sponsor.find; only the event's admins see
 * `telephone` and `email`.
 */
export default defineOperation({
  name: 'sponsor.get',
  summary: 'Reads one sponsor (public for readable events).',
  methods: ['GET'],
  params: { sponsorID: q(id, 'the sponsor'), grant: grantParam },
  auth: { kind: 'public' },
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const row = await sponsorByID(ctx.db, p.sponsorID);
    if (!row) throw notFound('sponsor');
    const { admin } = await objectReader(ctx, 'sponsor', row.eventID, p.grant);
    return [sponsorRecord(row, admin)];
  },
});
