import { defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { bindPair } from '../../../relation/common.ts';
import { requireAttendee } from '../../../enrollment/rules.ts';
import { listMember } from '../../repository.ts';

/**
 * Podium extension: adds an attendee of the list's event to the list (anyone else: 404 person).
 * Adding a member again answers the member and changes nothing (idempotent).
 */
export default defineOperation({
  name: 'list.person.bind',
  summary: 'Adds an attendee to a list.',
  methods: ['GET', 'POST'],
  params: { listID: q(id, 'the list'), personID: q(id, 'an attendee of the event of the list') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    await requireAttendee(ctx.db, ctx.access!.eventID!, p.personID);
    await bindPair(ctx.db, 'listPerson', { listID: p.listID, personID: p.personID });
    return listMember(ctx.db, p.listID, p.personID);
  },
});
