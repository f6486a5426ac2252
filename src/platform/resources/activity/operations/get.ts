import { defineOperation, q, qOpt, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { readableEvent, grantSchema } from '../../../auth/grant.ts';
import { requireCaller, requireEvent } from '../../../auth/access.ts';
import { activityRecords } from '../record.ts';
import { activityRow, personInEvent } from '../repository.ts';

/** An activity the caller may not see reads as one that does not exist. */
async function asActivity<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound('activity');
    throw err;
  }
}

/**
 * Spec §4.5, three forms. Q activityID, personID: an event admin reads that person's state
 * (approved, priori). Q activityID with a token: the token's person's state (any member of the
 * event; anyone else under the public rules). Q activityID alone: public, when the event is
 * visible and public; Podium extension Q grant (event.checkAccessCode) for a private event.
 */
export default defineOperation({
  name: 'activity.get',
  summary: 'Reads one activity, with the state of the token person or of personID (admins).',
  methods: ['GET'],
  params: {
    activityID: q(id, 'the activity'),
    personID: qOpt(id, "show this person's state (event admins only)"),
    grant: qOpt(grantSchema, 'Podium extension: the grant of event.checkAccessCode for a private event'),
  },
  auth: { kind: 'public' },
  cors: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const row = await activityRow(ctx.db, p.activityID);
    if (!row) throw notFound('activity');
    if (p.personID !== undefined) {
      requireCaller(ctx);
      await asActivity(requireEvent(ctx, row.eventID, LEVEL.ADMIN));
      if (!(await personInEvent(ctx.db, row.eventID, p.personID))) throw notFound('person');
      return activityRecords(ctx.db, [row], { personID: p.personID });
    }
    await asActivity(readableEvent(ctx, row.eventID, p.grant));
    return activityRecords(ctx.db, [row], ctx.caller ? { personID: ctx.caller.personID } : undefined);
  },
});
