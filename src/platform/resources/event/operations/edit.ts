import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { bit, email, hostname, id, number, slug, text, timestamp, timezone, url } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../edit.ts';
import { eventByID } from '../repository.ts';
import { eventRecord } from '../service.ts';
import { sanitizeOrganizerHtml } from '../../html.ts';
import { daysInMonth, fromWallTime, wallTime, type WallTime } from '../../time.ts';
import { updateRow } from '../../rows.ts';
import { checkEventAddress } from '../repository.ts';

const link = editKey(url, { clear: '' });
const line = editKey(text(1000), { clear: '' });
const part = (min: number, max: number) =>
  editKey(
    z
      .string()
      .regex(/^\d{1,2}$/, `must be an integer from ${min} to ${max}`)
      .transform(Number)
      .refine((n) => n >= min && n <= max, `must be an integer from ${min} to ${max}`),
  );

/** The keys of spec §2.2, then Podium's extension keys (documented in docs/api.md). */
const KEYS: Record<string, EditKey> = {
  name: editKey(text(200).refine((v) => v.trim() !== '', 'cannot be blank')),
  nickname: editKey(slug),
  email: editKey(email, { column: 'emailAddress', clear: '' }),
  description: editKey(text(50000).transform(sanitizeOrganizerHtml), { clear: '' }),
  cover: link,
  dateBegin: editKey(timestamp),
  dateEnd: editKey(timestamp),
  enrollmentBegin: editKey(timestamp, { clear: 0 }),
  enrollmentEnd: editKey(timestamp, { clear: 0 }),
  latitude: editKey(number.refine((n) => n >= -90 && n <= 90, 'must be between -90 and 90'), { clear: null }),
  longitude: editKey(number.refine((n) => n >= -180 && n <= 180, 'must be between -180 and 180'), { clear: null }),
  address: line,
  fugleman: line,
  ticketURL: link,
  website: link,
  accessCode: editKey(z.string().regex(/^\d{1,4}$/, 'must be an integer from 1 to 9999').transform(Number).refine((n) => n >= 1, 'must be an integer from 1 to 9999'), { clear: null }),
  socialA: link,
  socialC: link,
  wireless: line,
  visible: editKey(bit),
  public: editKey(bit),
  automaticEnrollment: editKey(bit),
  cname: editKey(hostname, { clear: null }),
  // Split date parts (spec §2.2): change one part of dateBegin/dateEnd, in the event's time zone.
  dayBegin: part(1, 31), monthBegin: part(1, 12), hourBegin: part(0, 23), minuteBegin: part(0, 59),
  dayEnd: part(1, 31), monthEnd: part(1, 12), hourEnd: part(0, 23), minuteEnd: part(0, 59),
  // Podium extensions: what the public site needs to render the event.
  timezone: editKey(timezone),
  language: editKey(z.enum(['en', 'pt', 'es'], 'must be en, pt or es')),
  city: line,
  state: line,
  placeName: line,
  presential: editKey(bit),
  archived: editKey(bit),
  /** Podium extension: how many labels each attendee may print (event.person.print); 0 = no limit. */
  printLimit: editKey(z.string().regex(/^\d{1,9}$/, 'must be an integer of at least 0').transform(Number), { clear: 0 }),
}; // prettier-ignore

const SPLIT = /^(day|month|hour|minute)(Begin|End)$/;

/** Spec §4.2: edits one field of an event. Keys outside the list are refused (no mass assignment). */
export default defineOperation({
  name: 'event.edit',
  summary: `Edits one event field. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    key: q(text(60), 'field to edit'),
    value: bOpt(
      z.string().max(50000, 'must be at most 50000 characters'),
      'new value; empty clears fields that may be empty',
    ),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  async handler(ctx, p) {
    const event = (await eventByID(ctx.db, p.eventID))!;
    let { column, value } = parseEdit(KEYS, p.key, p.value);

    const split = SPLIT.exec(p.key);
    if (split) {
      const [, unit, side] = split as unknown as [string, keyof WallTime, 'Begin' | 'End'];
      column = `date${side}`;
      const current = event[column as 'dateBegin' | 'dateEnd'] || ctx.now;
      const wall = { ...wallTime(current, event.timezone), [unit]: value as number, second: 0 };
      if (wall.day > daysInMonth(wall.year, wall.month)) throw badRequest(`value makes an invalid date (key ${p.key})`);
      value = fromWallTime(wall, event.timezone);
    }
    if (column === 'dateBegin' || column === 'dateEnd') {
      const begin = column === 'dateBegin' ? (value as number) : event.dateBegin;
      const end = column === 'dateEnd' ? (value as number) : event.dateEnd;
      if (begin && end && end < begin)
        throw badRequest('dateEnd cannot be before dateBegin (edit the other date first)');
    }
    if (column === 'enrollmentBegin' || column === 'enrollmentEnd') {
      const begin = column === 'enrollmentBegin' ? (value as number) : event.enrollmentBegin;
      const end = column === 'enrollmentEnd' ? (value as number) : event.enrollmentEnd;
      if (begin && end && end < begin) throw badRequest('enrollmentEnd cannot be before enrollmentBegin');
    }
    if (column === 'nickname') await checkEventAddress(ctx.db, event, { nickname: value as string });
    if (column === 'cname' && value !== null) await checkEventAddress(ctx.db, event, { cname: value as string });
    await updateRow(ctx.db, 'event', 'eventID', p.eventID, { [column]: value });
    return [eventRecord((await eventByID(ctx.db, p.eventID))!, ctx.now, 'full')];
  },
});
