import { defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { deleteRow } from '../../../rows.ts';
import { sectionByID } from '../../../hotsite/repository.ts';

/** Podium extension: removes a hotsite section; answers the removed record. */
export default defineOperation({
  name: 'event.hotsite.remove',
  summary: "Removes a section from the event's public website.",
  methods: ['GET'],
  params: { sectionID: q(id, 'the section') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['sectionID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = (await sectionByID(ctx.db, p.sectionID))!;
    await deleteRow(ctx.db, 'hotsite', 'sectionID', p.sectionID);
    return [row];
  },
});
