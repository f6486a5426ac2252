import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { deleteRow } from '../../rows.ts';
import { feedbackRows } from '../../form/repository.ts';

/** Podium extension: removes a custom field of the registration form, with every answer to it. */
export default defineOperation({
  name: 'feedback.remove',
  summary: 'Removes a custom field of the registration form and its answers.',
  methods: ['GET'],
  params: { feedbackID: q(id, 'the field') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['feedbackID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const rows = await feedbackRows(ctx.db, ctx.access!.eventID!, p.feedbackID);
    await deleteRow(ctx.db, 'feedback', 'feedbackID', p.feedbackID);
    return rows;
  },
});
