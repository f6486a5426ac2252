import type { AnyOperation } from '../kernel/table.ts';
import eventPersonBind from '../resources/event/operations/person/bind.ts';
import eventPersonOperate from '../resources/event/operations/person/operate.ts';
import eventPersonFind from '../resources/event/operations/person/find.ts';
import eventPersonGet from '../resources/event/operations/person/get.ts';
import eventPersonPrint from '../resources/event/operations/person/print.ts';
import eventPersonDismiss from '../resources/event/operations/person/dismiss.ts';

/** Attendees (spec §2.3, §4.4): docs/api/attendees.md. */
export const attendeesOperations: readonly AnyOperation[] = [
  eventPersonBind,
  eventPersonOperate,
  eventPersonFind,
  eventPersonGet,
  eventPersonPrint,
  eventPersonDismiss,
];
