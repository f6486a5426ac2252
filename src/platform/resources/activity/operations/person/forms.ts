import { z } from 'zod';
import { bOpt, qOpt, type Context, type Row } from '../../../../kernel/table.ts';
import { bit, id } from '../../../../schemas.ts';
import { badRequest } from '../../../../errors.ts';
import { lockActivities, type Seats } from '../../../enrollment/seats.ts';
import { requireAttendee, requireUnlocked } from '../../../enrollment/rules.ts';
import { MAX_BULK, MAX_CONTENT, contentOfEvent, inRow } from '../../../enrollment/bulk.ts';
import { formOf, type Form } from '../../../enrollment/forms.ts';
import { eventOfCall, isEventAdmin, requireAdmin, selfAttendee } from '../../../../kernel/call.ts';

// What activity.person.bind and .dismiss share (spec §4.6, docs/api/attendance.md): the parameters of
// their common forms, and how those forms run — the caller's own seat, one attendee by personID, and a
// JSON list over the event, all or nothing.

/** Who a seat change is for: an admin acting, or the caller on their own seat. */
export interface Who {
  readonly admin: boolean;
  readonly self: boolean;
}

/** The parameters both operations take; `verb` says what admins do to the attendee named. */
export function personFormParams(verb: 'enroll' | 'dismiss') {
  return {
    activityID: qOpt(id, 'the activity (every form but content)'),
    eventID: qOpt(id, 'the event (content form only)'),
    personID: qOpt(id, `admin: the attendee to ${verb}`),
    bypassWebhook: qOpt(bit, '1 delivers this call to no webhook (docs/webhooks.md; not for the own form)'),
  };
}

export const contentParam = bOpt(
  z.string().max(MAX_CONTENT, `must be at most ${MAX_CONTENT} characters`),
  `admin: JSON list of {activityID, personID} of the event (at most ${MAX_BULK}; all or nothing)`,
);

/** The activity named by the call (the dispatcher found its event), locked. */
export async function lockOne(ctx: Context, activityID: number): Promise<Seats> {
  return (await lockActivities(ctx.db, [activityID])).get(activityID)!;
}

interface FormCall {
  activityID?: number;
  personID?: number;
  bypassWebhook?: number;
  content?: string;
}

/**
 * Runs the call in its form. `seat` binds or dismisses one person on locked seats. The caller's own
 * seat cannot skip webhooks, and a locked activity refuses anyone but admins; every other form is for
 * admins (`others` names what they do). `more` runs the forms only one operation has.
 */
export async function runPersonForm<P extends FormCall>(
  ctx: Context,
  p: P,
  o: {
    readonly doing: string;
    readonly others: string;
    readonly seat: (seats: Seats, personID: number, who: Who) => Promise<Row>;
    readonly more?: (form: Form, eventID: number, who: Who) => Promise<Row[]>;
  },
): Promise<Row[]> {
  const form = formOf(p);
  const eventID = eventOfCall(ctx);
  if (form === 'self') {
    if (p.bypassWebhook === 1) throw badRequest(`bypassWebhook cannot be used when ${o.doing} yourself`);
    const personID = await selfAttendee(ctx);
    const admin = isEventAdmin(ctx);
    const seats = await lockOne(ctx, p.activityID!);
    if (!admin) requireUnlocked(seats);
    return [await o.seat(seats, personID, { admin, self: true })];
  }
  requireAdmin(ctx, o.others);
  const who = { admin: true, self: false };
  if (form === 'personID') {
    await requireAttendee(ctx.db, eventID, p.personID!);
    return [await o.seat(await lockOne(ctx, p.activityID!), p.personID!, who)];
  }
  if (form !== 'content') return o.more!(form, eventID, who);
  // Every pair is checked and changed in one transaction; any refusal refuses them all.
  const pairs = await contentOfEvent(ctx.db, eventID, p.content!);
  const seats = await lockActivities(ctx.db, [...new Set(pairs.map((x) => x.activityID))]);
  const out = [];
  for (const [i, pair] of pairs.entries()) {
    out.push(
      await inRow('content item', i, async () => {
        await requireAttendee(ctx.db, eventID, pair.personID);
        return o.seat(seats.get(pair.activityID)!, pair.personID, who);
      }),
    );
  }
  return out;
}
