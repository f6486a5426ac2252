import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { feedbackRows } from '../../form/repository.ts';

/** Podium extension: the custom fields of the registration form, in form order, with answer counts. */
export default defineOperation({
  name: 'feedback.find',
  summary: 'Lists the custom fields of the registration form of an event, in form order.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: false,
  async handler(ctx, p) {
    return feedbackRows(ctx.db, p.eventID);
  },
});
