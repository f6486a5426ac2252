import { defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { notFound } from '../../../../errors.ts';
import { dismissPair } from '../../../relation/common.ts';
import { listPersonOf } from '../../repository.ts';

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
    const person = await listPersonOf(ctx.db, ctx.access!.eventID!, p.listID, p.personID);
    if (!person) throw notFound('person');
    await dismissPair(ctx.db, 'listPerson', { listID: p.listID, personID: p.personID });
    return [{ listID: p.listID, ...person }];
  },
});
