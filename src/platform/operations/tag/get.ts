import { defineOperation, q } from '../../table.ts';
import { id } from '../../schemas.ts';
import { notFound } from '../../errors.ts';
import { grantParam, objectReader } from '../site-read.ts';
import { tagByID } from '../../domain/tag/repository.ts';

/** Podium extension: reads one tag of an event. Public like tag.find. */
export default defineOperation({
  name: 'tag.get',
  summary: 'Reads one tag (public for readable events).',
  methods: ['GET'],
  params: { tagID: q(id, 'the tag'), grant: grantParam },
  auth: { kind: 'public' },
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const row = await tagByID(ctx.db, p.tagID);
    if (!row) throw notFound('tag');
    await objectReader(ctx, 'tag', row.eventID!, p.grant);
    return [row];
  },
});
