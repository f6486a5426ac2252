import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../../kernel/table.ts';
import { chainsPage } from '../../relation/pages.ts';
import { id } from '../../../schemas.ts';

/** Spec §4.7. The chains of an event, by name, each with its activities (ids, names) and their count. */
export default defineOperation({
  name: 'chain.find',
  summary: 'Lists the chains of an event with their activities.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  async handler(ctx, p) {
    return chainsPage(ctx.db, p.eventID, pageOf(p));
  },
});
