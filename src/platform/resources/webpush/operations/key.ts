import { defineOperation } from '../../../kernel/table.ts';
import { webPushKeyWire } from '../../../../shared/wire/webpush.ts';
import { vapidKeys } from '../keys.ts';

/**
 * Podium extension (docs/push.md "Web Push"): the platform's VAPID public key, which a browser gives
 * PushManager.subscribe as its applicationServerKey. One key for the platform, made on first start.
 */
export default defineOperation({
  name: 'push.key',
  summary: 'The VAPID public key browsers subscribe to Web Push with (applicationServerKey).',
  methods: ['GET'],
  params: {},
  auth: { kind: 'public' },
  extension: true,
  cors: true,
  writes: false,
  answer: webPushKeyWire,
  async handler(ctx) {
    return [{ publicKey: (await vapidKeys(ctx.db)).publicKey }];
  },
});
