import { z } from 'zod';
import { editKey, type EditKey } from '../../edit.ts';
import type { Webhook } from '../../../shared/wire/webhook.ts';
import type { WebhookRow } from './repository.ts';

// The webhook's field list: what webhook.create takes and webhook.edit may change, checked once here.

const OPERATION = /^[a-z]+(?:\.[a-zA-Z]+)+$|^ping$/;
const MAX_TYPES = 60;

/** The target: an absolute http(s) address (https only, unless WEBHOOK_ALLOW_HTTP=1: checked by the operations). */
export const webhookUrl = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'must be an https URL');

/** Comma-separated operation names (`activity.edit,event.person.bind`); '' for every type. */
export const webhookTypes = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .transform((v) =>
    v
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => list.every((t) => OPERATION.test(t) && t.length <= 80),
    'must be operation names separated by commas',
  )
  .refine((list) => list.length <= MAX_TYPES, `must name at most ${MAX_TYPES} types`)
  .transform((list) => [...new Set(list)].join(','));

export const webhookActive = z.enum(['0', '1'], 'must be 0 or 1').transform(Number);

/**
 * The keys of webhook.edit, with the value each takes (parseEdit: unknown keys are refused naming
 * these). An empty `types` means every type, so `value=` clears it; a url or active is never empty.
 */
export const WEBHOOK_EDIT_KEYS: Readonly<Record<string, EditKey>> = {
  url: editKey(webhookUrl),
  types: editKey(webhookTypes, { clear: '' }),
  active: editKey(webhookActive),
};

/** A time the platform keeps in ms, as the API sends every time: Unix seconds ('' for none). */
export const seconds = (ms: number | null) => (ms ? String(Math.floor(ms / 1000)) : '');

/** The row as its admins read it (the wire row of src/shared/wire/webhook.ts): never the secret. */
export function webhookRecord(r: WebhookRow, nowMs: number): Webhook {
  return {
    webhookID: String(r.webhookID),
    companyID: String(r.companyID),
    eventID: r.eventID === null ? '' : String(r.eventID),
    url: r.url,
    types: r.types,
    active: String(r.active),
    disabledReason: r.disabledReason,
    failingSince: seconds(r.failingSince),
    oldSecretUntil: r.oldSecretUntil > nowMs ? seconds(r.oldSecretUntil) : '',
    createdAt: seconds(r.createdAt),
  };
}

/** The type a change is delivered as: the operation that caused it (a registration is an attendee bound). */
export function typeOf(operation: string): string {
  return operation === 'form.respondRegistration' ? 'event.person.bind' : operation;
}

/**
 * Writes that are no one's news: a webhook's own set-up, and private messages between people (chat.*:
 * the company is not told who wrote to whom; the receiver hears chat/send, docs/api/chat.md).
 */
export const isDelivered = (operation: string): boolean =>
  !operation.startsWith('webhook.') && !operation.startsWith('chat.');

/**
 * Changes recorded apart from an operation of their name, that a company's webhooks hear: a report
 * asked for (format=excel-daemon on a list, kernel/dispatch.ts), ready or failed
 * (src/platform/reports/build.ts); a bulk daemon started, finished or failed (src/platform/daemons/run.ts);
 * a CRM sync of an event finished or failed (resources/crmfeed/job.ts); a sender's domain checked
 * (resources/sender/job.ts); an event's custom domain checked (resources/event/cname.ts). A job's change that is no one's news is recorded quiet (the address checks).
 */
export const JOB_CHANGES = [
  'download.create',
  'download.ready',
  'download.fail',
  'daemon.start',
  'daemon.done',
  'daemon.fail',
  'crmfeed.sync.done',
  'crmfeed.sync.fail',
  'sender.check',
  'event.cname.check',
] as const;

/**
 * The types a webhook can hear, from the operation table's writes: every write records a change named
 * after its operation (src/platform/kernel/changes.ts), delivered as `typeOf` it; and the jobs'
 * changes. `ping` is webhook.test's.
 */
export function deliveredTypes(operations: readonly { name: string; writes: boolean }[]): ReadonlySet<string> {
  const types = operations.filter((op) => op.writes && isDelivered(op.name)).map((op) => typeOf(op.name));
  return new Set([...types, ...JOB_CHANGES, 'ping']);
}

/** The names of `types` (a stored comma list) that no change is ever delivered as, in order. */
export const unknownTypes = (types: string, known: ReadonlySet<string>): string[] =>
  types === '' ? [] : types.split(',').filter((t) => !known.has(t));

/** Whether a webhook hears of changes of `type` (its list names it, or it lists none). */
export const hears = (types: string, type: string): boolean => types === '' || types.split(',').includes(type);

/** The `webhook-id` of a delivery: one per (webhook, change), so retries and catch-up share it. */
export const messageIDOf = (webhookID: number, changeID: number | null, deliveryID: number): string =>
  changeID === null ? `msg_${webhookID}_ping_${deliveryID}` : `msg_${webhookID}_${changeID}`;
