import { z } from 'zod';
import { bOpt, defineOperation, qOpt, ANY_LEVEL, type Context } from '../../../../kernel/table.ts';
import { bit, email, id, text } from '../../../../schemas.ts';
import { badRequest } from '../../../../errors.ts';
import { readImport } from '../../../imports.ts';
import { lockRow } from '../../../rows.ts';
import { lockActivities, bindSeat, type Seats } from '../../../enrollment/seats.ts';
import { requireAttendee, requireUnlocked } from '../../../enrollment/rules.ts';
import { MAX_BULK, MAX_CONTENT, attendeeByEmail, contentOfEvent, inRow } from '../../../enrollment/bulk.ts';
import { lockWithGeneral } from '../../../enrollment/general.ts';
import { formOf } from '../../../enrollment/forms.ts';
import { eventOfCall, isEventAdmin, requireAdmin, selfAttendee } from '../../../../kernel/call.ts';

const csvID = /^[1-9]\d{0,9}$/;

/**
 * Spec §4.6, five forms (docs/api/attendance.md): the admin forms by personID, by name + e-mail (the
 * person is found or created and enrolled in the event), by CSV file (B path) and by JSON list over the
 * event (B content, all or nothing); and the token's person enrolling themself. Seats, waiting list,
 * chain and list rules: domain/enrollment/seats.ts.
 */
export default defineOperation({
  name: 'activity.person.bind',
  summary: 'Enrolls people in activities (approved while seats last, then the waiting list).',
  methods: ['GET', 'POST'],
  params: {
    activityID: qOpt(id, 'the activity (every form but content)'),
    eventID: qOpt(id, 'the event (content form only)'),
    personID: qOpt(id, 'admin: the attendee to enroll'),
    bypassWebhook: qOpt(
      bit,
      '1 skips webhooks (none can be registered yet: accepted, no effect; not for the own form)',
    ),
    name: bOpt(text(200), 'admin, with email: name of a person created here'),
    email: bOpt(email, 'admin, with name: the person by e-mail, created and enrolled in the event when new'),
    path: bOpt(text(500), 'admin: CSV file inside IMPORT_DIR, columns personID or email (+ name)'),
    content: bOpt(
      z.string().max(MAX_CONTENT, `must be at most ${MAX_CONTENT} characters`),
      `admin: JSON list of {activityID, personID} of the event (at most ${MAX_BULK}; all or nothing)`,
    ),
  },
  variants: [['activityID', 'personID'], ['activityID', 'name', 'email'], ['activityID', 'path'], ['eventID', 'content'], ['activityID']], // prettier-ignore
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID', 'eventID'] },
  writes: true,
  async handler(ctx, p) {
    const form = formOf(p);
    const eventID = eventOfCall(ctx);
    if (form === 'self') {
      if (p.bypassWebhook === 1) throw badRequest('bypassWebhook cannot be used when binding yourself');
      const personID = await selfAttendee(ctx);
      const admin = isEventAdmin(ctx);
      const seats = await lockOne(ctx, p.activityID!);
      if (!admin) requireUnlocked(seats);
      return [await bindSeat(ctx.db, seats, personID, ctx.now, { admin, self: true })];
    }
    requireAdmin(ctx, 'enroll other people');
    const who = { admin: true, self: false };
    if (form === 'personID') {
      await requireAttendee(ctx.db, eventID, p.personID!);
      const seats = await lockOne(ctx, p.activityID!);
      return [await bindSeat(ctx.db, seats, p.personID!, ctx.now, who)];
    }
    if (form === 'email') {
      // The event row first: creating an attendee is a check-then-insert on the event (lock order: event, activities).
      await lockRow(ctx.db, 'event', eventID);
      // With the event's general activities, where a new attendee is enrolled too (ascending lock order).
      const seats = (await lockWithGeneral(ctx.db, eventID, [p.activityID!])).get(p.activityID!)!;
      const personID = await attendeeByEmail(ctx.db, eventID, p.email!, p.name!, ctx.now);
      return [await bindSeat(ctx.db, seats, personID, ctx.now, who)];
    }
    if (form === 'path') {
      const rows = await readImport(ctx.config.IMPORT_DIR, p.path!);
      if (rows.length === 0) throw badRequest('path has no rows');
      if (rows.length > MAX_BULK) throw badRequest(`path can have at most ${MAX_BULK} rows`);
      await lockRow(ctx.db, 'event', eventID);
      const seats = (await lockWithGeneral(ctx.db, eventID, [p.activityID!])).get(p.activityID!)!;
      const out = [];
      for (const [i, row] of rows.entries()) {
        out.push(
          // Rows are counted as in the file: the header is row 1.
          await inRow('path row', i + 1, async () => {
            const personID = await csvPerson(ctx, eventID, row);
            return bindSeat(ctx.db, seats, personID, ctx.now, who);
          }),
        );
      }
      return out;
    }
    // content: every pair is checked and bound in one transaction; any refusal refuses them all.
    const pairs = await contentOfEvent(ctx.db, eventID, p.content!);
    const seats = await lockActivities(ctx.db, [...new Set(pairs.map((x) => x.activityID))]);
    const out = [];
    for (const [i, pair] of pairs.entries()) {
      out.push(
        await inRow('content item', i, async () => {
          await requireAttendee(ctx.db, eventID, pair.personID);
          return bindSeat(ctx.db, seats.get(pair.activityID)!, pair.personID, ctx.now, who);
        }),
      );
    }
    return out;
  },
});

/** The activity named by the call (the dispatcher found its event), locked. */
async function lockOne(ctx: Context, activityID: number): Promise<Seats> {
  return (await lockActivities(ctx.db, [activityID])).get(activityID)!;
}

/** One CSV row: `personID` (an attendee), or `email` (+ `name`) found or created like the e-mail form. */
async function csvPerson(ctx: Context, eventID: number, row: Record<string, string>): Promise<number> {
  const rawID = (row.personID ?? '').trim();
  if (rawID !== '') {
    if (!csvID.test(rawID)) throw badRequest('personID must be a positive integer');
    await requireAttendee(ctx.db, eventID, Number(rawID));
    return Number(rawID);
  }
  const mail = email.safeParse((row.email ?? '').trim());
  if (!mail.success) throw badRequest('needs a personID or an email (an e-mail address)');
  const name = (row.name ?? '').trim().slice(0, 200) || mail.data.split('@')[0];
  return attendeeByEmail(ctx.db, eventID, mail.data, name, ctx.now);
}
