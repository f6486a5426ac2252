import type { AnyOperation } from '../kernel/table.ts';
import formGet from '../resources/form/operations/get.ts';
import formEdit from '../resources/form/operations/edit.ts';
import formRespondRegistration from '../resources/form/operations/respondRegistration.ts';
import { feedbackOperations } from '../resources/feedback/operations/index.ts';
import eventInviteBind from '../resources/event/operations/invite/bind.ts';
import eventInviteDismiss from '../resources/event/operations/invite/dismiss.ts';
import eventInviteFind from '../resources/event/operations/invite/find.ts';

/** The registration form (spec §4.4 form.respondRegistration), its fields, settings and invitees. */
export const registrationOperations: readonly AnyOperation[] = [
  formGet,
  formEdit,
  formRespondRegistration,
  ...feedbackOperations,
  eventInviteBind,
  eventInviteDismiss,
  eventInviteFind,
];
