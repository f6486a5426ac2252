import { ApiError, badRequest } from '../../../errors.ts';
import { b, bOpt, defineOperation, q, qOpt } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { grantSchema, readableEvent } from '../../../auth/grant.ts';
import { webPushWire } from '../../../../shared/wire/webpush.ts';
import { maskAddress } from '../../event/access-code-failures.ts';
import { endpointProblem } from '../endpoint.ts';
import { WEB_PUSH_FIELDS } from '../fields.ts';
import { countSubscriptions, saveSubscription, sessionsOf, subscriptionByEndpoint } from '../repository.ts';

/**
 * Podium extension (issue 13, docs/push.md "Web Push"): a browser asks to be told when one of the
 * sessions it saved moves, changes rooms or is cancelled — no account, no e-mail: its Web Push
 * subscription and the ids of its saved sessions. Binding the same endpoint again replaces its keys and
 * sessions (the browser sends its whole list whenever it changes). Readable events only, as the
 * program; ids that are not sessions of the event are not kept. Deleted by push.dismiss, and when the
 * event ends.
 */
export default defineOperation({
  name: 'push.bind',
  summary:
    'Binds a browser (its Web Push subscription) to saved sessions of an event: a move, room change or cancellation of one notifies it.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    grant: qOpt(grantSchema, 'the grant of event.checkAccessCode for a private event'),
    endpoint: b(WEB_PUSH_FIELDS.endpoint, "the subscription's endpoint (a push service's https:// address)"),
    p256dh: b(WEB_PUSH_FIELDS.p256dh, "the subscription's keys.p256dh (base64url)"),
    auth: b(WEB_PUSH_FIELDS.auth, "the subscription's keys.auth (base64url)"),
    activityIDs: b(WEB_PUSH_FIELDS.activityIDs, 'the saved sessions, comma-separated (at most 200)'),
    page: bOpt(WEB_PUSH_FIELDS.page, "the schedule's path on the site; a notification opens <page>/<activityID>"),
  },
  auth: { kind: 'public' },
  extension: true,
  cors: true,
  writes: true,
  answer: webPushWire,
  async handler(ctx, p) {
    const { event } = await readableEvent(ctx, p.eventID, p.grant, { preview: false });
    if (Number(event.dateEnd) > 0 && Number(event.dateEnd) < ctx.now) throw new ApiError(409, 'this event has ended');
    const problem = endpointProblem(p.endpoint, {
      hosts: ctx.config.WEBPUSH_HOSTS,
      allowHttp: ctx.config.WEBPUSH_ALLOW_HTTP === '1',
    });
    if (problem) throw badRequest(`endpoint ${problem}`);
    const address = maskAddress(ctx.clientIp);
    if (!(await subscriptionByEndpoint(ctx.db, p.eventID, p.endpoint))) {
      const count = await countSubscriptions(ctx.db, p.eventID, address);
      if (count.fromAddress >= ctx.config.WEBPUSH_MAX_PER_NET)
        throw new ApiError(429, 'too many push subscriptions from this address for this event');
      if (count.all >= ctx.config.WEBPUSH_MAX_PER_EVENT)
        throw new ApiError(409, 'this event has as many push subscriptions as it may hold');
    }
    const activityIDs = await sessionsOf(ctx.db, p.eventID, p.activityIDs);
    const pushID = await saveSubscription(ctx.db, {
      eventID: p.eventID,
      endpoint: p.endpoint,
      p256dh: p.p256dh,
      auth: p.auth,
      page: p.page ?? '',
      address,
      activityIDs,
      now: ctx.now,
    });
    return [{ pushID: String(pushID), eventID: String(p.eventID), activities: String(activityIDs.length) }];
  },
});
