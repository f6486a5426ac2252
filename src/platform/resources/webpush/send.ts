import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobLogger, JobQueue } from '../../jobs/queue.ts';
import { eventByID } from '../event/repository.ts';
import { changesOfVersion } from '../program/repository.ts';
import { endpointProblem, type EndpointRule } from './endpoint.ts';
import { vapidKeys, webpushLib } from './keys.ts';
import { noticeOf, notifies } from './notice.ts';
import { deleteSubscriptions, subscribersOf, subscriptionByID } from './repository.ts';

// Sending, as durable jobs (never in the request): a program write whose changelog has a move, a room
// change or a removal adds `push.notify` for its version (watch.ts); that job finds the browsers that
// saved those sessions and adds one `push.send` per browser, so one slow or failing push service is
// retried alone. web-push encrypts the payload (aes128gcm) and signs with the VAPID keys; the request
// itself goes out through fetch, which follows no redirect, so the checked endpoint is the only address
// the platform ever calls. A 404 or 410 from the push service means the browser dropped the subscription:
// it is deleted. 429 and 5xx are retried with the job's backoff; any other refusal is logged and dropped.

export const NOTIFY_JOB = 'push.notify';
export const SEND_JOB = 'push.send';

export interface SendOptions {
  readonly subject: string;
  readonly rule: EndpointRule;
  readonly logger: JobLogger;
  /** Milliseconds one push service may take to answer. */
  readonly timeoutMs?: number;
}

interface NotifyPayload {
  readonly eventID: number;
  readonly version: number;
}
interface SendPayload extends NotifyPayload {
  readonly pushID: number;
  readonly activityIDs: readonly number[];
}

/** Whether the event's program changes reach anyone outside it: a draft's (or a template's) do not, as in activity.changes. */
export async function heardOutside(db: Kysely<DB>, eventID: number): Promise<boolean> {
  const event = await eventByID(db, eventID);
  return event !== undefined && event.visible === 1 && event.isTemplate !== 1;
}

/** push.notify: one push.send per browser that saved a session the version moved, re-roomed or removed. */
export function notifyHandler(db: Kysely<DB>, queue: Pick<JobQueue, 'add'>): JobHandler {
  return async ({ eventID, version }: NotifyPayload) => {
    // Asked again when the job runs: an event hidden since the write notifies no one either.
    if (!(await heardOutside(db, eventID))) return;
    const rows = (await changesOfVersion(db, eventID, version)).filter((r) => notifies(r.kinds));
    const subscribers = await subscribersOf(
      db,
      eventID,
      rows.map((r) => Number(r.activityID)),
    );
    for (const [pushID, activityIDs] of subscribers)
      await queue.add(db, SEND_JOB, { eventID, version, pushID, activityIDs }, { key: `${pushID}:${version}` });
  };
}

/** push.send: the one notification of a version to one browser. */
export function sendHandler(db: Kysely<DB>, options: SendOptions): JobHandler {
  return async ({ eventID, version, pushID, activityIDs }: SendPayload) => {
    const [subscription, event, rows] = await Promise.all([
      subscriptionByID(db, pushID),
      eventByID(db, eventID),
      changesOfVersion(db, eventID, version),
    ]);
    // Dismissed (or pruned) since the job was added: nothing to do.
    if (!subscription || !event) return;
    const saved = new Set(activityIDs);
    const notice = noticeOf(
      rows.filter((r) => saved.has(Number(r.activityID))),
      { eventID, version, timeZone: event.timezone || 'UTC', page: subscription.page },
    );
    if (!notice) return;
    const problem = endpointProblem(subscription.endpoint, options.rule);
    if (problem) {
      options.logger.warn({ pushID, problem }, 'push: endpoint no longer allowed, subscription deleted');
      await db.transaction().execute((trx) => deleteSubscriptions(trx, [pushID]));
      return;
    }
    const keys = await vapidKeys(db);
    const request = webpushLib().generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(notice),
      {
        vapidDetails: { subject: options.subject, ...keys },
        contentEncoding: 'aes128gcm',
        // Kept by the push service while the phone is off, up to a day: older news is on the changes page.
        TTL: 86_400,
        urgency: 'high',
      },
    );
    const res = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: new Uint8Array(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return;
    if (res.status === 404 || res.status === 410) {
      await db.transaction().execute((trx) => deleteSubscriptions(trx, [pushID]));
      return;
    }
    // Busy or failing: the job's backoff tries again.
    if (res.status === 429 || res.status >= 500) throw new Error(`push service answered ${res.status}`);
    options.logger.warn({ pushID, status: res.status }, 'push: push service refused the notification');
  };
}
