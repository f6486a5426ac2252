import { z } from 'zod';
import { b, defineOperation, q, qOpt, ANY_LEVEL } from '../../../../kernel/table.ts';
import { bit, id, text } from '../../../../schemas.ts';
import { badRequest } from '../../../../errors.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../../edit.ts';
import { lockActivities, setSeatField, type SeatField } from '../../../enrollment/seats.ts';
import { requireAttendee, requireUnlocked } from '../../../enrollment/rules.ts';
import { eventOfCall, isEventAdmin, requireAdmin } from '../../../../kernel/call.ts';

/** Spec §2.5: the attendee edit keys, all bits. */
const KEYS: Record<SeatField, EditKey> = {
  approved: editKey(bit),
  paid: editKey(bit),
  present: editKey(bit),
  priori: editKey(bit),
};

/**
 * Spec §4.6. With personID (an admin): any key; approved 1 may go beyond the capacity (an admin's
 * decision), approved 0 moves the person to the waiting list and gives their seat to the first one
 * waiting. Without personID (or with one's own): the token's own record, key priori only, refused
 * when the activity is locked (lockOperations=1).
 */
export default defineOperation({
  name: 'activity.person.operate',
  summary: `Sets one field of an activity attendee. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    activityID: q(id, 'the activity'),
    key: q(text(60), `field to set: ${keyList(KEYS)} (own record: priori)`),
    personID: qOpt(id, 'admin: the attendee (without it: the token’s own record)'),
    value: b(z.string().max(10, 'must be at most 10 characters'), '0 or 1'),
  },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(KEYS, p.key, p.value);
    const field = column as SeatField;
    const own = ctx.caller!.personID;
    const admin = isEventAdmin(ctx);
    // The admin form names a person (an admin naming themself too); otherwise the token's own record.
    const adminForm = p.personID !== undefined && (p.personID !== own || admin);
    const personID = p.personID ?? own;
    if (adminForm) {
      requireAdmin(ctx, 'change other people’s enrollment');
      await requireAttendee(ctx.db, eventOfCall(ctx), personID);
    } else if (field !== 'priori') {
      throw badRequest(
        admin
          ? `key ${field} needs personID (your own record takes only priori)`
          : 'key must be priori on your own record',
      );
    }
    const seats = (await lockActivities(ctx.db, [p.activityID])).get(p.activityID)!;
    if (!admin) requireUnlocked(seats);
    return [await setSeatField(ctx.db, seats, personID, field, value as number)];
  },
});
