import { defineOperation, editParams, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { eventByID, type EventRecordRow } from '../repository.ts';
import { eventRecord } from '../service.ts';
import { checkEventDates, EDIT_KEYS as KEYS, SPLIT_DATE_KEY } from '../fields.ts';
import { daysInMonth, fromWallTime, wallTime, type WallTime } from '../../time.ts';
import { updateRow } from '../../rows.ts';
import { checkEventAddress } from '../repository.ts';
import { checkPrivateHasCode, followVenue } from '../rules.ts';
import { askCname } from '../cname.ts';

/**
 * Spec §4.2: edits one field of an event. Keys outside the list are refused (no mass assignment).
 * A venue edit also sets `presential` when the event gains or loses its venue, and a private event
 * cannot be left without an access code (rules.ts). A custom domain (cname) is checked in DNS before
 * it is served (cname.ts).
 */
export default defineOperation({
  name: 'event.edit',
  summary: `Edits one event field. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    ...editParams(50000),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  async handler(ctx, p) {
    const event = (await eventByID(ctx.db, p.eventID))!;
    let { column, value } = parseEdit(KEYS, p.key, p.value);

    const split = SPLIT_DATE_KEY.exec(p.key);
    if (split) {
      const [, unit, side] = split as unknown as [string, keyof WallTime, 'Begin' | 'End'];
      column = `date${side}`;
      const wall = { ...splitBase(event, side, ctx.now), [unit]: value as number, second: 0 };
      if (wall.day > daysInMonth(wall.year, wall.month)) throw badRequest(`value makes an invalid date (key ${p.key})`);
      value = fromWallTime(wall, event.timezone);
    }
    checkEventDates({ ...event, [column]: value }, column);
    if (column === 'nickname') await checkEventAddress(ctx.db, event, { nickname: value as string });
    if (column === 'cname' && value !== null) await checkEventAddress(ctx.db, event, { cname: value as string });
    const after = { ...event, [column]: value };
    checkPrivateHasCode(after, [column]);
    const follows = followVenue(event, after, [column]);
    // A custom domain is served only once DNS shows it is the company's (cname.ts).
    const set = column === 'cname' ? await askCname(ctx.db, ctx.jobs, event, value as string | null) : { [column]: value }; // prettier-ignore
    await updateRow(ctx.db, 'event', 'eventID', p.eventID, { ...set, ...follows });
    return [eventRecord((await eventByID(ctx.db, p.eventID))!, ctx.now, 'full')];
  },
});

/**
 * The wall time a split part changes: the stored date, else midnight of the other date's day (so
 * `hourEnd=17` after `dateBegin` is that day at 17:00), else midnight today, in the event's zone. A
 * part never inherits the clock's minutes: `hourBegin=9` on an undated event is 09:00, not 09:26.
 */
function splitBase(
  event: Pick<EventRecordRow, 'dateBegin' | 'dateEnd' | 'timezone'>,
  side: 'Begin' | 'End',
  now: number,
): WallTime {
  const stored = side === 'Begin' ? event.dateBegin : event.dateEnd;
  if (stored) return wallTime(stored, event.timezone);
  const other = (side === 'Begin' ? event.dateEnd : event.dateBegin) || now;
  return { ...wallTime(other, event.timezone), hour: 0, minute: 0, second: 0 };
}
