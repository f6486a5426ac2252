import { z } from 'zod';
import { id, s } from './values.ts';

/** A webhook as webhook.get / .find / .edit answer it (docs/webhooks.md); the secret is never in it. */
export const webhookWire = z.object({
  webhookID: id,
  companyID: id,
  /** '' for a company-wide webhook. */
  eventID: s,
  url: z.string(),
  /** Comma-separated operation names; '' for every type. */
  types: s,
  /** '1' or '0'. */
  active: z.string(),
  /** Why the platform turned it off: '' , `410` (the receiver answered 410 Gone), `failing` (5 days of failures). */
  disabledReason: s,
  /** Unix seconds of the first failure of the current run of failures; '' when the last attempt succeeded. */
  failingSince: s,
  /** Unix seconds until which the previous secret signs too (after webhook.rotate); '' when none. */
  oldSecretUntil: s,
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookWire>;

/** webhook.create and webhook.rotate: the webhook with its signing secret, shown only in this answer. */
export const webhookSecretWire = webhookWire.extend({ secret: z.string() });

/** One attempt of a delivery. */
export const webhookAttemptWire = z.object({
  /** Unix seconds. */
  at: z.string(),
  /** HTTP status; '0' when there was no answer (refused address, timeout, connection error). */
  status: z.string(),
  latencyMs: z.string(),
  /** The first 1 KB of the answer's body, or why there was none. */
  response: s,
});

/** A delivery (webhook.delivery.find): one change (or ping) to one webhook, with every attempt. */
export const webhookDeliveryWire = z.object({
  deliveryID: id,
  webhookID: id,
  /** '' for a ping. */
  changeID: s,
  /** The `webhook-id` header: the same for every attempt and for webhook.events (receivers de-duplicate by it). */
  messageID: z.string(),
  type: z.string(),
  /** pending, delivered or failed. */
  state: z.string(),
  attempts: z.string(),
  /** Unix seconds the next attempt is due; '' once settled. */
  nextAt: s,
  /** Unix seconds. */
  createdAt: z.string(),
  attemptList: z.array(webhookAttemptWire),
});

/** webhook.events: one signed payload, as it is (or was) delivered. */
export const webhookEventWire = z.object({
  changeID: id,
  /** The Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature, signed now. */
  messageID: z.string(),
  timestamp: z.string(),
  signature: z.string(),
  /** The JSON body, exactly as POSTed. */
  payload: z.string(),
});
