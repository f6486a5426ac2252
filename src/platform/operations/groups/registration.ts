import type { AnyOperation } from '../../table.ts';
import formGet from '../form/get.ts';
import formEdit from '../form/edit.ts';
import formRespondRegistration from '../form/respondRegistration.ts';
import feedbackCreate from '../feedback/create.ts';
import feedbackEdit from '../feedback/edit.ts';
import feedbackRemove from '../feedback/remove.ts';
import feedbackFind from '../feedback/find.ts';
import eventInviteBind from '../event/invite/bind.ts';
import eventInviteDismiss from '../event/invite/dismiss.ts';
import eventInviteFind from '../event/invite/find.ts';

/** The registration form (spec §4.4 form.respondRegistration), its fields, settings and invitees. */
export const registrationOperations: readonly AnyOperation[] = [
  formGet,
  formEdit,
  formRespondRegistration,
  feedbackCreate,
  feedbackEdit,
  feedbackRemove,
  feedbackFind,
  eventInviteBind,
  eventInviteDismiss,
  eventInviteFind,
];
