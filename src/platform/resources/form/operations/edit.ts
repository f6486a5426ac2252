import { defineOperation, editParams, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { eventByID } from '../../event/repository.ts';
import { checkEventDates } from '../../event/fields.ts';
import { formRecord, SETTING_KEYS as KEYS } from '../settings.ts';
import { updateRow } from '../../rows.ts';

/** Podium extension: edits one enrollment setting of the registration form; answers as form.get. */
export default defineOperation({
  name: 'form.edit',
  summary: `Edits one enrollment setting of the registration form. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    ...editParams(5000, 'new value; empty clears capacity, dates and consent', 'setting to edit'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(KEYS, p.key, p.value);
    const event = (await eventByID(ctx.db, p.eventID))!;
    checkEventDates({ ...event, [column]: value }, column);
    await updateRow(ctx.db, 'event', 'eventID', p.eventID, { [column]: value });
    return [await formRecord(ctx.db, { ...event, [column]: value }, ctx.now)];
  },
});
