import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { bindPair, eventOfCall } from '../../../domain/relation/common.ts';
import { listMembers } from '../../../domain/list/repository.ts';

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
    const attendee = await ctx.db
      .selectFrom('eventPerson')
      .select('personID')
      .where('eventID', '=', eventOfCall(ctx))
      .where('personID', '=', p.personID)
      .executeTakeFirst();
    if (!attendee) throw notFound('person');
    await bindPair(ctx.db, 'listPerson', { listID: p.listID, personID: p.personID });
    return listMembers(ctx.db, p.listID).where('listPerson.personID', '=', p.personID).execute();
  },
});
