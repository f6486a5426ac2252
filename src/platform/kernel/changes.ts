import { rowsOf, type AnyOperation, type Context, type Result } from './table.ts';
import { ACTIVITY_PARTS, kindOf, type Change } from '../resources/change/log.ts';

// What a committed write changed, for the change log (issue 11): read from the call the dispatcher ran,
// so every write operation records its change without saying anything itself. The object is the one
// the call names (its first id parameter), else the first answer row's own id (`activity.create`
// answers the new activityID; a `.copy` is always the new one); the event and company come from the authorization, else from the row.

/** Id parameters that name the object of a write, most specific first. */
const OBJECT_PARAMS = [
  'activityID', 'speakerID', 'sponsorID', 'tagID', 'sectionID', 'feedbackID', 'listID', 'chainID', 'personID',
  'eventID', 'companyID',
] as const; // prettier-ignore

/** Modules whose object's id is not named after the module: a guest is its eventGuestID, an applicant a person. */
const OWN_ID: Readonly<Record<string, string>> = {
  'event.guest': 'eventGuestID',
  'event.applicant': 'personID',
  'beacon.event': 'beaconEventID',
  'beacon.action': 'beaconActionID',
  'beacon.log': 'beaconLogID',
};

/** Writes whose form without the object's id acts on the caller's own record and answers no row. */
const SELF_FORMS: ReadonlySet<string> = new Set(['event.person.dismiss']);

const firstRow = (result: Result): Record<string, unknown> | undefined => rowsOf(result)[0];

const asID = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null);

/** The module's own id: `activity` → activityID, `event.person` → personID, `company.event` → eventID;
 * a speaker, sponsor or tag of an activity is a change of the activity (ACTIVITY_PARTS). */
const ownIdOf = (kind: string): string =>
  OWN_ID[kind] ?? (ACTIVITY_PARTS.has(kind) ? 'activityID' : `${kind.slice(kind.lastIndexOf('.') + 1)}ID`);

/**
 * The changes of a committed write, each with the answer it is about. One, as changeOf makes it;
 * but a bulk form (a CSV file, a JSON list: `activity.person.bind` by `path` or `content`,
 * `activity.create` by `path`, …) names no object of its own and answers a row per object, and then each
 * row is a change, as if it had been a call of its own: a webhook hears of every person a CSV enrolled,
 * not only of the first. Each row's change names the ids that row has among the operation's id
 * parameters (a content item's activityID and personID).
 */
export function changesOf(
  op: AnyOperation,
  ctx: Context,
  params: Record<string, unknown>,
  result: Result,
): { change: Change; result: Result }[] {
  const rows = rowsOf(result);
  const own = ownIdOf(kindOf(op.name));
  if (rows.length < 2 || asID(params[own]) !== null || !rows.every((r) => asID(r[own]) !== null))
    return [{ change: changeOf(op, ctx, params, result), result }];
  const idParams = Object.keys(op.params ?? {}).filter((name) => name.endsWith('ID') && name !== 'tokenID');
  return rows.map((row) => {
    const named = { ...params };
    for (const name of idParams) if (asID(row[name]) !== null) named[name] = row[name];
    return { change: changeOf(op, ctx, named, [row]), result: [row] };
  });
}

export function changeOf(op: AnyOperation, ctx: Context, params: Record<string, unknown>, result: Result): Change {
  const row = firstRow(result);
  // An application through the registration form (approved -1: docs/api/applicants.md) is an applicant
  // bound, not an attendee: its change (and webhook type) says so.
  const operation =
    op.name === 'form.respondRegistration' && Number(row?.approved) === -1 ? 'event.applicant.bind' : op.name;
  const kind = kindOf(operation);
  const own = ownIdOf(kind);
  // A copy's object is the new one its answer names (push.subscribe tells of it on activity/create),
  // not the source its parameter names.
  const made = op.name.endsWith('.copy') ? asID(row?.[own]) : null;
  let objectID: number | null = made ?? asID(params[own]) ?? asID(row?.[own]);
  // A form that names nobody is about the caller's own record: cancelling one's own registration
  // (event.person.dismiss without personID) is a change of that person (push guards, webhooks).
  if (objectID === null && SELF_FORMS.has(op.name)) objectID = asID(ctx.caller?.personID);
  for (const name of OBJECT_PARAMS) objectID ??= asID(params[name]);
  // Every id the call named, and the object's own (webhook payloads carry them: issue 14).
  const ids: Record<string, number> = {};
  for (const [name, value] of Object.entries(params)) {
    const v = asID(value);
    if (v !== null && name.endsWith('ID') && name !== 'tokenID') ids[name] = v;
  }
  if (objectID !== null && !(own in ids) && own !== 'ID') ids[own] = objectID;
  // A registration (or application) names the person it made an attendee: webhook receivers learn who
  // registered, and the confirmation e-mail follows this change (resources/email/confirmation.ts).
  const registered = op.name === 'form.respondRegistration' ? asID(row?.personID) : null;
  if (registered !== null) ids.personID = registered;
  return {
    ids,
    quiet: params.bypassWebhook === 1,
    operation,
    kind,
    companyID: ctx.access?.companyID ?? asID(row?.companyID) ?? asID(params.companyID),
    eventID: ctx.access?.eventID ?? asID(row?.eventID) ?? asID(params.eventID),
    objectID,
  };
}
