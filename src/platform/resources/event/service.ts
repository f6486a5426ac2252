import type { EventRecordRow } from './repository.ts';
import { wallTime } from '../time.ts';
import { eventWire } from '../../../shared/wire/event.ts';
import { recordOf, type RecordOf } from '../records.ts';

/** What a viewer is shown: `full` for the event's admins, `public` for everyone else. */
export type EventView = 'full' | 'public';

/** Fields only the event's admins see (a private event's access code, budget, sender and domain DNS, tracking set-up). */
const ADMIN_ONLY = [
  'accessCode', 'budget', 'emailDNS', 'sandbox', 'siblingID', 'printLimit', 'smsText', 'cnameState', 'cnameDNS',
] as const; // prettier-ignore
type AdminOnly = (typeof ADMIN_ONLY)[number];

/**
 * An event record: exactly the keys of its wire row (eventRecord does not compile otherwise), the
 * admin-only ones left out of the public view.
 */
export type EventRecord = Omit<RecordOf<typeof eventWire>, AdminOnly> &
  Partial<Pick<RecordOf<typeof eventWire>, AdminOnly>>;
const fullRecord = recordOf(eventWire);

/** The shape shown for a private event to someone who has not unlocked it: enough to draw the gate. */
const GATE_FIELDS = [
  'eventID', 'companyID', 'name', 'nickname', 'cover', 'background', 'timezone', 'language', 'public', 'visible',
] as const satisfies readonly (keyof EventRecord)[]; // prettier-ignore

/** Event list item (spec §2.2, public shape). */
export const LIST_FIELDS = [
  'eventID', 'name', 'nickname', 'email', 'description', 'cover', 'dateBegin', 'dateEnd', 'latitude', 'longitude',
  'spot', 'address', 'city', 'state', 'fugleman', 'ticketURL', 'socialA', 'socialC', 'visible', 'public',
  'automaticEnrollment', 'sandbox', 'approved',
] as const; // prettier-ignore

export interface Viewer {
  personID: number;
  role: string;
  company: string;
  level: number;
  approved: number;
  systemLevel: number;
  companyLevel: number;
}

const NOBODY: Viewer = { personID: 0, role: '', company: '', level: 0, approved: -1, systemLevel: 0, companyLevel: 0 };

/**
 * What is derived from the dates (spec §2.2 month, quarter, eventDays), in the event's time zone;
 * '' while the dates are not set (0), never values of 1970.
 */
function calendarOf(row: EventRecordRow) {
  if (row.dateBegin === 0) return { month: '', quarter: '', eventDays: '' };
  const begin = wallTime(row.dateBegin, row.timezone);
  return {
    month: begin.month,
    quarter: Math.ceil(begin.month / 3),
    // A begin without an end is a one-day event; an end before the begin too.
    eventDays: row.dateEnd > row.dateBegin ? Math.ceil((row.dateEnd - row.dateBegin) / 86400) : 1,
  };
}

/** The full event record of spec §2.2: stored columns plus the computed ones. */
export function eventRecord(row: EventRecordRow, now: number, view: EventView, viewer: Viewer = NOBODY) {
  // The registration form's settings are read with form.get, not repeated in every event record.
  const { emailAddress, enrollmentOpen, inviteRequired, waitingList, consent, approvalRequired, cnameAsked, ...stored } = row; // prettier-ignore
  void [enrollmentOpen, inviteRequired, waitingList, consent, approvalRequired];
  const out: EventRecord = fullRecord({
    ...stored,
    email: emailAddress,
    emailAddress,
    // Admins see the domain they asked for (with cnameState); everyone else the domain served.
    cname: (view === 'full' ? cnameAsked : row.cname) ?? '',
    accessCode: row.accessCode ?? '',
    ...calendarOf(row),
    // hasTag, hasSponsor, hasFeedback: what the event has (repository.ts). Podium keeps no photos or
    // materials, so no event has any; the company's tool switches are company.tool.get's.
    hasPhoto: 0,
    hasMaterial: 0,
    happeningNow: row.dateBegin !== 0 && row.dateBegin <= now && now <= row.dateEnd ? 1 : 0,
    happeningAfter: row.dateBegin > now ? 1 : 0,
    isSponsor: 0,
    ...viewer,
  });
  if (view === 'public') for (const k of ADMIN_ONLY) delete out[k];
  return out;
}

export function gateRecord(row: EventRecordRow): Partial<EventRecord> {
  return Object.fromEntries(GATE_FIELDS.map((k) => [k, row[k]]));
}

/** The list fields of an event row; company.event.find adds the rest of its wire row. */
export function listItem(row: Record<string, unknown>): { [K in (typeof LIST_FIELDS)[number]]: unknown } {
  const full: Record<string, unknown> = { ...row, email: row.emailAddress };
  return Object.fromEntries(LIST_FIELDS.map((k) => [k, full[k] ?? (k === 'approved' ? -1 : '')])) as {
    [K in (typeof LIST_FIELDS)[number]]: unknown;
  };
}
