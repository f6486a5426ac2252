import { ApiError, badRequest, notFound } from '../../../errors.ts';
import { LEVEL, type Context } from '../../../kernel/table.ts';
import { requireCompany, requireEvent } from '../../../auth/access.ts';
import { webhookByID, type WebhookRow } from '../repository.ts';
import { deliveredTypes, unknownTypes } from '../fields.ts';

// Who may touch a webhook: the admins of its company, or — for an event's webhook — of its event.
// Anyone else is told the webhook does not exist (ids of another tenant are not told from unknown ones).

/** The company (and event) a create or a find names, once the caller is an admin there. */
export async function requireTarget(
  ctx: Context,
  p: { companyID?: number; eventID?: number },
): Promise<{ companyID: number; eventID: number | null }> {
  if (p.eventID !== undefined) {
    const access = await requireEvent(ctx, p.eventID, LEVEL.ADMIN);
    if (p.companyID !== undefined && p.companyID !== access.companyID) throw notFound('event');
    return { companyID: access.companyID, eventID: p.eventID };
  }
  if (p.companyID === undefined) throw badRequest('companyID or eventID cannot be empty');
  await requireCompany(ctx, p.companyID, 'admin');
  return { companyID: p.companyID, eventID: null };
}

/** The webhook `webhookID`, when the caller administers it. */
export async function requireWebhook(ctx: Context, webhookID: number): Promise<WebhookRow> {
  const row = await webhookByID(ctx.db, webhookID);
  if (!row) throw notFound('webhook');
  try {
    await requireTarget(ctx, row.eventID === null ? { companyID: row.companyID } : { eventID: row.eventID });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound('webhook');
    throw err;
  }
  return row;
}

/** https only, unless the platform allows http (development): checked at registration and at each edit. */
export function checkScheme(ctx: Context, url: string): void {
  if (!/^https:/i.test(url) && ctx.config.WEBHOOK_ALLOW_HTTP !== '1') throw badRequest('url must be an https URL');
}

/** The key that seals secrets; without it no secret can be kept (docs/webhooks.md "Secrets"). */
export function secretKey(ctx: Context): Buffer {
  const key = ctx.config.WEBHOOK_SECRET_KEY;
  if (!key) throw new ApiError(503, 'webhooks need WEBHOOK_SECRET_KEY in the platform environment');
  return key;
}

let known: ReadonlySet<string> | undefined;

/**
 * A types list names only what a change can be delivered as: a misspelt `activity.edt` would otherwise
 * be kept and never hear anything, silently. (The table imports this file: read lazily, as api.describe.)
 */
export async function checkTypes(types: string): Promise<void> {
  if (!known) known = deliveredTypes((await import('../../../catalog/index.ts')).operations);
  const unknown = unknownTypes(types, known);
  if (unknown.length)
    throw badRequest(
      `types names no change a webhook hears: ${unknown.slice(0, 5).join(', ')} (docs/webhooks.md lists them)`,
    );
}
