import type { AnyOperation } from '../../../kernel/table.ts';
import create from './create.ts';
import edit from './edit.ts';
import find from './find.ts';
import get from './get.ts';
import tryIt from './try.ts';
import dispatch from './dispatch.ts';
import send from './send.ts';
import log from './log.ts';
import unsubscribe from './unsubscribe.ts';
import blacklistFind from './blacklist-find.ts';
import blacklistRemove from './blacklist-remove.ts';
import open from './open.ts';
import bounce from './bounce.ts';

/** Custom e-mails of an event (issue 15): spec §4.9 event.email.* and event.blacklist.*, the log and the one-click unsubscribe. */
export const emailOperations: readonly AnyOperation[] = [
  create,
  edit,
  find,
  get,
  tryIt,
  dispatch,
  send,
  log,
  unsubscribe,
  blacklistFind,
  blacklistRemove,
  open,
  bounce,
];
