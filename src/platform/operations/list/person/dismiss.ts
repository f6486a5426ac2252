import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { dismissPair, eventOfCall } from '../../../domain/relation/common.ts';

/**
 * Podium extension: takes a person out of a list. The person must be an attendee of the event or a
 * member of the list (else 404 person); one who is not in the list answers the same (idempotent).
 */
export default defineOperation({
  name: 'list.person.dismiss',
  summary: 'Removes a person from a list.',
  methods: ['GET', 'POST'],
  params: { listID: q(id, 'the list'), personID: q(id, 'the person') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    // The event's record of the person (name and e-mail as given to it); a list member no longer an
    // attendee answers with ids only.
    const attendee = await ctx.db
      .selectFrom('eventPerson')
      .select(['personID', 'name', 'email'])
      .where('eventID', '=', eventOfCall(ctx))
      .where('personID', '=', p.personID)
      .executeTakeFirst();
    const member = await ctx.db
      .selectFrom('listPerson')
      .select('personID')
      .where('listID', '=', p.listID)
      .where('personID', '=', p.personID)
      .executeTakeFirst();
    const person = attendee ?? (member ? { personID: member.personID, name: '', email: '' } : undefined);
    if (!person) throw notFound('person');
    await dismissPair(ctx.db, 'listPerson', { listID: p.listID, personID: p.personID });
    return [{ listID: p.listID, ...person }];
  },
});
