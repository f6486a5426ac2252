import type { AnyOperation } from '../../../kernel/table.ts';
import pushBind from './bind.ts';
import pushDismiss from './dismiss.ts';
import pushKey from './key.ts';

/** Web Push without an account (issue 13, docs/push.md "Web Push"). */
export const webPushOperations: readonly AnyOperation[] = [pushKey, pushBind, pushDismiss];
