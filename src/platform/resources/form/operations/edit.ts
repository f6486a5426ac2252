import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { bit, id, text, timestamp } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../edit.ts';
import { eventByID } from '../../event/repository.ts';
import { sanitizeOrganizerHtml } from '../../html.ts';
import { formRecord } from '../settings.ts';
import { updateRow } from '../../rows.ts';

export const MAX_CAPACITY = 10_000_000;

/** The event's enrollment settings (Podium extension keys; event.edit has the spec's event keys). */
const KEYS: Record<string, EditKey> = {
  enrollmentOpen: editKey(bit),
  inviteRequired: editKey(bit),
  waitingList: editKey(bit),
  capacity: editKey(
    z
      .string()
      .regex(/^\d{1,8}$/, `must be an integer from 0 to ${MAX_CAPACITY}`)
      .transform(Number)
      .refine((n) => n <= MAX_CAPACITY, `must be an integer from 0 to ${MAX_CAPACITY}`),
    { clear: 0 },
  ),
  enrollmentBegin: editKey(timestamp, { clear: 0 }),
  enrollmentEnd: editKey(timestamp, { clear: 0 }),
  consent: editKey(text(5000).transform(sanitizeOrganizerHtml), { clear: '' }),
};

/** Podium extension: edits one enrollment setting of the registration form; answers as form.get. */
export default defineOperation({
  name: 'form.edit',
  summary: `Edits one enrollment setting of the registration form. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    key: q(text(60), 'setting to edit'),
    value: bOpt(
      z.string().max(5000, 'must be at most 5000 characters'),
      'new value; empty clears capacity, dates and consent',
    ),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(KEYS, p.key, p.value);
    const event = (await eventByID(ctx.db, p.eventID))!;
    if (column === 'enrollmentBegin' || column === 'enrollmentEnd') {
      const begin = column === 'enrollmentBegin' ? (value as number) : event.enrollmentBegin;
      const end = column === 'enrollmentEnd' ? (value as number) : event.enrollmentEnd;
      if (begin && end && end < begin) throw badRequest('enrollmentEnd cannot be before enrollmentBegin');
    }
    await updateRow(ctx.db, 'event', 'eventID', p.eventID, { [column]: value });
    return [await formRecord(ctx.db, { ...event, [column]: value }, ctx.now)];
  },
});
