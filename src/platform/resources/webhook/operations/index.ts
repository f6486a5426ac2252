import type { AnyOperation } from '../../../kernel/table.ts';
import webhookCreate from './create.ts';
import webhookFind from './find.ts';
import webhookGet from './get.ts';
import webhookEdit from './edit.ts';
import webhookRemove from './remove.ts';
import webhookRotate from './rotate.ts';
import webhookTest from './test.ts';
import webhookEvents from './events.ts';
import webhookDeliveryFind from './delivery/find.ts';
import webhookDeliveryRetry from './delivery/retry.ts';

/** Webhooks (issue 14, docs/webhooks.md): registration, the delivery log, catch-up. */
export const webhookOperations: readonly AnyOperation[] = [
  webhookCreate,
  webhookFind,
  webhookGet,
  webhookEdit,
  webhookRemove,
  webhookRotate,
  webhookTest,
  webhookEvents,
  webhookDeliveryFind,
  webhookDeliveryRetry,
];
