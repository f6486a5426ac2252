import { LRUCache } from 'lru-cache';
import { Webhook } from 'standardwebhooks';
import { openSecret } from './secret.ts';
import type { WebhookRow } from './repository.ts';

// Signatures as the Standard Webhooks specification says, made by its reference library: HMAC-SHA256
// over `id.timestamp.body` with the `whsec_` secret, sent as `v1,<base64>`. While a rotation lasts the
// old secret signs too, and both signatures go out space-separated (receivers accept either).

/** The job that makes one attempt of one delivery (src/platform/webhooks/deliver.ts). */
export const DELIVER_JOB = 'webhook.deliver';
/** The job that makes the first attempts of a batch of deliveries, each settled on its own (the feeder's). */
export const DELIVER_BATCH_JOB = 'webhook.deliverBatch';

export interface Signed {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

// Opening a sealed secret (AES-GCM) and making its signer cost more than the signature itself, and a
// webhook signs many deliveries: the signer of each sealed secret is kept a while in this process
// (the store and its backups still hold only sealed secrets; a rotation seals a new one, a new key).
const signers = new LRUCache<string, Webhook>({ max: 1000, ttl: 10 * 60_000 });
function signerOf(key: Buffer, sealed: string): Webhook {
  const id = `${key.toString('base64')}:${sealed}`;
  let signer = signers.get(id);
  if (!signer) signers.set(id, (signer = new Webhook(openSecret(key, sealed))));
  return signer;
}

/** The headers of `body` sent now (`nowMs`) as message `messageID` by webhook `w`. */
export function signDelivery(key: Buffer, w: WebhookRow, messageID: string, body: string, nowMs: number): Signed {
  const at = new Date(Math.floor(nowMs / 1000) * 1000);
  const secrets = [w.secret, ...(w.oldSecret && w.oldSecretUntil > nowMs ? [w.oldSecret] : [])];
  const signature = secrets.map((s) => signerOf(key, s).sign(messageID, at, body)).join(' ');
  return {
    'webhook-id': messageID,
    'webhook-timestamp': String(Math.floor(nowMs / 1000)),
    'webhook-signature': signature,
  };
}

/** The body of a ping (webhook.test): what a receiver sees to check its set-up. */
export function pingBody(w: WebhookRow, nowMs: number): string {
  return JSON.stringify({
    type: 'ping',
    changeID: '',
    companyID: String(w.companyID),
    eventID: w.eventID === null ? '' : String(w.eventID),
    webhookID: String(w.webhookID),
    at: String(Math.floor(nowMs / 1000)),
  });
}
