import { bOpt, defineOperation, ANY_LEVEL, type Context } from '../../../../kernel/table.ts';
import { email, text } from '../../../../schemas.ts';
import { badRequest } from '../../../../errors.ts';
import { readEventImport } from '../../../imports.ts';
import { lockRow } from '../../../rows.ts';
import { bindSeat } from '../../../enrollment/seats.ts';
import { requireAttendee } from '../../../enrollment/rules.ts';
import { MAX_BULK, attendeeByEmail, inRow } from '../../../enrollment/bulk.ts';
import { lockWithGeneral } from '../../../enrollment/general.ts';
import { contentParam, personFormParams, runPersonForm, type Who } from './forms.ts';

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
    ...personFormParams('enroll'),
    name: bOpt(text(200), 'admin, with email: name of a person created here'),
    email: bOpt(email, 'admin, with name: the person by e-mail, created and enrolled in the event when new'),
    path: bOpt(text(500), 'admin: CSV file inside IMPORT_DIR, columns personID or email (+ name)'),
    content: contentParam,
  },
  variants: [['activityID', 'personID'], ['activityID', 'name', 'email'], ['activityID', 'path'], ['eventID', 'content'], ['activityID']], // prettier-ignore
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID', 'eventID'] },
  writes: true,
  handler: (ctx, p) =>
    runPersonForm(ctx, p, {
      doing: 'binding',
      others: 'enroll other people',
      seat: (seats, personID, who) => bindSeat(ctx.db, seats, personID, ctx.now, who),
      more: (form, eventID, who) => (form === 'email' ? byEmail(ctx, p, eventID, who) : byPath(ctx, p, eventID, who)),
    }),
});

/** The e-mail form: the person found or created as an attendee, then enrolled. */
async function byEmail(
  ctx: Context,
  p: { activityID?: number; name?: string; email?: string },
  eventID: number,
  who: Who,
) {
  // The event row first: creating an attendee is a check-then-insert on the event (lock order: event, activities).
  await lockRow(ctx.db, 'event', eventID);
  // With the event's general activities, where a new attendee is enrolled too (ascending lock order).
  const seats = (await lockWithGeneral(ctx.db, eventID, [p.activityID!])).get(p.activityID!)!;
  const personID = await attendeeByEmail(ctx.db, eventID, p.email!, p.name!, ctx.now);
  return [await bindSeat(ctx.db, seats, personID, ctx.now, who)];
}

/** The CSV form: each row a personID or an e-mail (+ name), all or nothing. */
async function byPath(ctx: Context, p: { activityID?: number; path?: string }, eventID: number, who: Who) {
  const rows = await readEventImport(ctx.db, ctx.config.IMPORT_DIR, eventID, p.path!);
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
