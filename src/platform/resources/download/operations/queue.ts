import { randomBytes } from 'node:crypto';
import type { Config } from '../../../config.ts';
import type { AnyOperation, Context, Row } from '../../../kernel/table.ts';
import { badRequest } from '../../../errors.ts';
import { companyOfEvent, downloadRecord, insertDownload, namesOf } from '../repository.ts';

// format=excel-daemon (spec §1.4): the call is answered at once with the queued report; a REPORT_JOB
// (src/platform/reports/build.ts) builds the file. The report keeps the call's own query, so the job
// reads exactly the list the caller asked for, page by page, as the caller (docs/api/reports.md).

export const REPORT_JOB = 'report.build';
export const REPORT_EXPIRE_JOB = 'report.expire';

/** Query keys that are the call's and not the list's: never kept with a report. */
const NOT_KEPT = new Set(['action', 'tokenID', 'format', 'sandbox', 'limit', 'offset', 'paginated']);

/** The API's address as callers reach it: the base of a report's url. */
export const apiUrlOf = (config: Config): string =>
  config.PUBLIC_API_URL ?? config.PODIUM_API_URL ?? `http://${config.HOST}:${config.API_PORT}`;

/** A report's title: the operation and what the call chose (its parameters other than ids). */
function titleOf(op: AnyOperation, query: Record<string, string>): string {
  const chosen = Object.entries(query)
    .filter(([k]) => !k.endsWith('ID'))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return (chosen ? `${op.name} (${chosen})` : op.name).slice(0, 200);
}

/**
 * Queues the report of a call to `op` (the caller authorized, its parameters valid): a download row
 * and its job, in the transaction `ctx.db`. Sets `params.downloadID` (and `companyID`) so the change
 * the dispatcher records names the new report and its company.
 */
export async function queueReport(
  ctx: Context,
  op: AnyOperation,
  params: Record<string, unknown>,
  rawQuery: Readonly<Record<string, unknown>>,
): Promise<Row[]> {
  const caller = ctx.caller!;
  const eventID = ctx.access?.eventID ?? (typeof params.eventID === 'number' ? params.eventID : undefined);
  const companyID =
    ctx.access?.companyID ??
    (eventID !== undefined ? await companyOfEvent(ctx.db, eventID) : undefined) ??
    (typeof params.companyID === 'number' ? params.companyID : undefined);
  if (companyID === undefined) throw badRequest(`format excel-daemon needs the company or event ${op.name} lists`);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(rawQuery))
    if (!NOT_KEPT.has(k) && typeof v === 'string' && v !== '') query[k] = v;
  const row = await insertDownload(ctx.db, {
    companyID,
    eventID: eventID ?? 0,
    personID: caller.personID,
    scope: caller.scope,
    targetID: caller.targetID,
    title: titleOf(op, query),
    type: op.name,
    params: JSON.stringify(query),
    // 128 random bits: the url cannot be guessed (and is still refused to a token that may not read the list).
    secret: randomBytes(16).toString('base64url'),
    state: 'queued',
    date: ctx.now,
  });
  await ctx.jobs.add(ctx.db, REPORT_JOB, { downloadID: row.downloadID });
  // What the change names: the new report, and its company where the call's rule did not find it.
  params.downloadID = row.downloadID;
  params.companyID ??= companyID;
  return [downloadRecord(await namesOf(ctx.db, row), ctx.now, apiUrlOf(ctx.config))];
}
