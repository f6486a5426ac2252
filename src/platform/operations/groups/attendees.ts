import type { AnyOperation } from '../../table.ts';
import eventPersonBind from '../event/person/bind.ts';
import eventPersonOperate from '../event/person/operate.ts';
import eventPersonFind from '../event/person/find.ts';
import eventPersonGet from '../event/person/get.ts';
import eventPersonPrint from '../event/person/print.ts';
import eventPersonDismiss from '../event/person/dismiss.ts';

/** Attendees (spec §2.3, §4.4): docs/api/attendees.md. */
export const attendeesOperations: readonly AnyOperation[] = [
  eventPersonBind,
  eventPersonOperate,
  eventPersonFind,
  eventPersonGet,
  eventPersonPrint,
  eventPersonDismiss,
];
