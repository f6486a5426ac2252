import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../table.ts';
import { id, text } from '../../schemas.ts';
import { keyList, parseEdit } from '../../edit.ts';
import { checkSpeakerPerson, speakerByID, speakerRecord, SPEAKER_KEYS } from '../../domain/speaker/repository.ts';

/** Podium extension: edits one field of a speaker (spec §1.3 edit style). */
export default defineOperation({
  name: 'speaker.edit',
  summary: `Edits one speaker field. Keys: ${keyList(SPEAKER_KEYS)}.`,
  methods: ['POST'],
  params: {
    speakerID: q(id, 'the speaker'),
    key: q(text(60), 'field to edit'),
    value: bOpt(z.string().max(50000, 'must be at most 50000 characters'), 'new value; empty clears (not name)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['speakerID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(SPEAKER_KEYS, p.key, p.value);
    if (column === 'personID' && value !== null)
      await checkSpeakerPerson(ctx.db, ctx.access!.eventID!, value as number, p.speakerID);
    await ctx.db
      .updateTable('speaker')
      .set({ [column]: value })
      .where('speakerID', '=', p.speakerID)
      .execute();
    return [speakerRecord((await speakerByID(ctx.db, p.speakerID))!, true)];
  },
});
