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
  methods: ['GET'],
  params: { listID: q(id, 'the list'), personID: q(id, 'the person') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const person = await ctx.db
      .selectFrom('person')
      .select(['personID', 'name', 'email'])
      .where('personID', '=', p.personID)
      .where((e) =>
        e.or([
          e.exists(
            e
              .selectFrom('eventPerson')
              .select('eventPerson.personID')
              .where('eventPerson.eventID', '=', eventOfCall(ctx))
              .where('eventPerson.personID', '=', p.personID),
          ),
          e.exists(
            e
              .selectFrom('listPerson')
              .select('listPerson.personID')
              .where('listPerson.listID', '=', p.listID)
              .where('listPerson.personID', '=', p.personID),
          ),
        ]),
      )
      .executeTakeFirst();
    if (!person) throw notFound('person');
    await dismissPair(ctx.db, 'listPerson', { listID: p.listID, personID: p.personID });
    return [{ listID: p.listID, ...person }];
  },
});
