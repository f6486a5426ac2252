import { z } from 'zod';
import { bit, email, hostname, nonBlank, number, slug, text, timestamp, timezone, url } from '../../schemas.ts';
import { badRequest } from '../../errors.ts';
import { editKey, parseEdit, type EditKey } from '../../edit.ts';
import { sanitizeOrganizerHtml } from '../html.ts';
import { checkPrivateHasCode, followVenue } from './rules.ts';

// The schemas of the event fields (spec §2.2): what company.event.bind takes for a new event and the
// keys event.edit takes, shared with the demo seed so that every way in validates a field the same way.

/** What company.event.bind takes for the new event (B name, nickname; Q isTemplate). */
export const CREATE_FIELDS = { name: nonBlank(200), nickname: slug, isTemplate: bit } as const;
type CreateField = keyof typeof CREATE_FIELDS;

const link = editKey(url, { clear: '' });
const line = editKey(text(1000), { clear: '' });
/** One line of at most `max` characters, trimmed: what goes into a header or an SMS. */
const oneLine = (max: number) =>
  editKey(
    text(max)
      .refine((v) => !/[\r\n]/.test(v), 'must be one line')
      .transform((v) => v.trim()),
    { clear: '' },
  );
const part = (min: number, max: number) =>
  editKey(
    z
      .string()
      .regex(/^\d{1,2}$/, `must be an integer from ${min} to ${max}`)
      .transform(Number)
      .refine((n) => n >= min && n <= max, `must be an integer from ${min} to ${max}`),
  );

/** The keys of event.edit: spec §2.2's, then Podium's extension keys (documented in docs/api.md). */
export const EDIT_KEYS: Record<string, EditKey> = {
  name: editKey(nonBlank(200)),
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
  /** Podium extension: what event.sendSMS says, with {{eventName}} and {{link}}; '' = the name and the link. */
  smsText: oneLine(300),
  /** Podium extension: the display name of the event's e-mail (`From`); '' = the sender's or the event's name. */
  emailName: oneLine(200),
}; // prettier-ignore

/** The split date keys (dayBegin … minuteEnd): unit and side of the date they change. */
export const SPLIT_DATE_KEY = /^(day|month|hour|minute)(Begin|End)$/;

export interface EventDates {
  readonly dateBegin: number;
  readonly dateEnd: number;
  readonly enrollmentBegin: number;
  readonly enrollmentEnd: number;
}

/** 400 when writing `column` leaves an end before its begin: the event's dates or its enrollment window (0 = not set). */
export function checkEventDates(e: EventDates, column: string): void {
  if ((column === 'dateBegin' || column === 'dateEnd') && e.dateBegin && e.dateEnd && e.dateEnd < e.dateBegin)
    throw badRequest('dateEnd cannot be before dateBegin (edit the other date first)');
  if (
    (column === 'enrollmentBegin' || column === 'enrollmentEnd') &&
    e.enrollmentBegin &&
    e.enrollmentEnd &&
    e.enrollmentEnd < e.enrollmentBegin
  )
    throw badRequest('enrollmentEnd cannot be before enrollmentBegin');
}

/** A new event's own values, as company.event.bind has them parsed. */
export interface NewEvent {
  readonly name: string;
  readonly nickname: string;
  readonly isTemplate?: number;
  readonly templateID?: number;
  readonly siblingID?: number;
}

/**
 * An event from the strings a request would carry: name, nickname and isTemplate as company.event.bind
 * parses them, every other key as event.edit parses it (answered as columns to set). The split date
 * keys need a stored date, so a new event takes dateBegin and dateEnd instead.
 */
export function parseEvent(input: Readonly<Record<string, string>>): {
  event: NewEvent;
  settings: Record<string, unknown>;
} {
  const event: Record<string, unknown> = {};
  const settings: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(input)) {
    if (Object.hasOwn(CREATE_FIELDS, key)) {
      const parsed = CREATE_FIELDS[key as CreateField].safeParse(raw);
      if (!parsed.success) throw badRequest(`${key} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
      event[key] = parsed.data;
    } else {
      if (SPLIT_DATE_KEY.test(key)) throw badRequest(`key ${key} needs a stored date; give dateBegin or dateEnd`);
      const { column, value } = parseEdit(EDIT_KEYS, key, raw);
      settings[column] = value;
    }
  }
  const dates = { dateBegin: 0, dateEnd: 0, enrollmentBegin: 0, enrollmentEnd: 0, ...settings } as EventDates;
  for (const column of Object.keys(settings)) checkEventDates(dates, column);
  // The rules event.edit applies, from a new event's defaults (public, no venue, no code).
  const given = Object.keys(settings);
  checkPrivateHasCode({ public: 1, accessCode: null, ...settings }, given);
  Object.assign(settings, followVenue({}, settings, given));
  return { event: event as unknown as NewEvent, settings };
}

/**
 * The row of a new event in a company: what it was copied from (a sibling or template's columns),
 * the settings, then its own name, address, creator and source. Hidden (visible 0) unless copied or set.
 */
export function newEventRow(
  event: NewEvent,
  owner: { readonly companyID: number; readonly creatorID: number },
  now: number,
  from: { copied?: Record<string, unknown>; settings?: Record<string, unknown> } = {},
): Record<string, unknown> {
  return {
    visible: 0,
    ...from.copied,
    ...from.settings,
    companyID: owner.companyID,
    name: event.name.trim(),
    nickname: event.nickname,
    dateCreated: now,
    creatorID: owner.creatorID,
    ownerID: owner.creatorID,
    isTemplate: event.isTemplate ?? 0,
    templateID: event.templateID ?? 0,
    siblingID: event.siblingID ?? 0,
  };
}
