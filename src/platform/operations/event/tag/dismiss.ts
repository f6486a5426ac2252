import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { companyTagOfCall } from './rules.ts';
import { dismissPair } from '../../../domain/relation/common.ts';

/** Podium extension: removes an event tag from an event (company admins); a pair not bound answers the same. */
export default defineOperation({
  name: 'event.tag.dismiss',
  summary: 'Removes an event tag from an event (company admins).',
  methods: ['GET', 'POST'],
  params: { eventID: q(id, 'the event'), tagID: q(id, "an event tag of the event's company") },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    await companyTagOfCall(ctx, p.tagID);
    await dismissPair(ctx.db, 'eventTag', { eventID: p.eventID, tagID: p.tagID });
    return [{ eventID: p.eventID, tagID: p.tagID }];
  },
});
