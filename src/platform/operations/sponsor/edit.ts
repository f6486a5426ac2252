import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../table.ts';
import { id, text } from '../../schemas.ts';
import { keyList, parseEdit } from '../../edit.ts';
import { sponsorByID, sponsorRecord, SPONSOR_KEYS } from '../../domain/sponsor/repository.ts';

/** Podium extension: edits one field of a sponsor (spec §1.3 edit style). */
export default defineOperation({
  name: 'sponsor.edit',
  summary: `Edits one sponsor field. Keys: ${keyList(SPONSOR_KEYS)}.`,
  methods: ['POST'],
  params: {
    sponsorID: q(id, 'the sponsor'),
    key: q(text(60), 'field to edit'),
    value: bOpt(z.string().max(50000, 'must be at most 50000 characters'), 'new value; empty clears (not name)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['sponsorID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(SPONSOR_KEYS, p.key, p.value);
    await ctx.db
      .updateTable('sponsor')
      .set({ [column]: value })
      .where('sponsorID', '=', p.sponsorID)
      .execute();
    return [sponsorRecord((await sponsorByID(ctx.db, p.sponsorID))!, true)];
  },
});
