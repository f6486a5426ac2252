import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { companyTagOfCall } from './rules.ts';
import { bindPair } from '../../../domain/relation/common.ts';

/**
 * Podium extension: tags an event with one of its company's event tags (company.tag.create), which
 * company.event.find then selects (`tags:<id>`) and filters (`tags`). Company admins only. Binding
 * again changes nothing.
 */
export default defineOperation({
  name: 'event.tag.bind',
  summary: 'Tags an event with an event tag of its company (company admins).',
  methods: ['GET', 'POST'],
  params: { eventID: q(id, 'the event'), tagID: q(id, "an event tag of the event's company") },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    await companyTagOfCall(ctx, p.tagID);
    await bindPair(ctx.db, 'eventTag', { eventID: p.eventID, tagID: p.tagID });
    return [{ eventID: p.eventID, tagID: p.tagID }];
  },
});
