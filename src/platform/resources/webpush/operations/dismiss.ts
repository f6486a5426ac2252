import { timingSafeEqual } from 'node:crypto';
import { notFound } from '../../../errors.ts';
import { b, defineOperation, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { webPushWire } from '../../../../shared/wire/webpush.ts';
import { WEB_PUSH_FIELDS } from '../fields.ts';
import { deleteSubscriptions, subscriptionByEndpoint } from '../repository.ts';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Podium extension (docs/push.md "Web Push"): the browser withdraws its subscription from an event. It
 * proves it is that browser with the subscription's auth secret, which only the browser and the platform
 * know: an endpoint alone (which passes through the push service) removes nothing. Unknown endpoint and
 * wrong secret are the same 404. Works whatever became of the event since.
 */
export default defineOperation({
  name: 'push.dismiss',
  summary: 'Removes a browser’s Web Push subscription from an event (proved by its auth secret).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    endpoint: b(WEB_PUSH_FIELDS.endpoint, "the subscription's endpoint"),
    auth: b(WEB_PUSH_FIELDS.auth, "the subscription's keys.auth (base64url), as given to push.bind"),
  },
  auth: { kind: 'public' },
  extension: true,
  cors: true,
  writes: true,
  answer: webPushWire,
  async handler(ctx, p) {
    const found = await subscriptionByEndpoint(ctx.db, p.eventID, p.endpoint);
    if (!found || !same(found.auth, p.auth)) throw notFound('push subscription');
    await deleteSubscriptions(ctx.db, [Number(found.pushID)]);
    return [{ pushID: String(found.pushID), eventID: String(p.eventID), activities: '0' }];
  },
});
