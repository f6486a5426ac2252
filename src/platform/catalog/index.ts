import type { AnyOperation } from '../kernel/table.ts';
import personSignIn from '../resources/person/operations/signIn.ts';
import apiDescribe from '../resources/api/operations/describe.ts';
import apiPing from '../resources/api/operations/ping.ts';
import changeSubscribe from '../resources/change/operations/subscribe.ts';
import pushSubscribe from '../resources/push/operations/subscribe.ts';
import companyCreate from '../resources/company/operations/create.ts';
import companyEdit from '../resources/company/operations/edit.ts';
import companyFind from '../resources/company/operations/find.ts';
import companyGet from '../resources/company/operations/get.ts';
import companyPersonBind from '../resources/company/operations/person/bind.ts';
import companyPersonOperate from '../resources/company/operations/person/operate.ts';
import companyPersonDismiss from '../resources/company/operations/person/dismiss.ts';
import companyPersonFind from '../resources/company/operations/person/find.ts';
import companyPersonSync from '../resources/company/operations/person/sync.ts';
import companyToolEdit from '../resources/company/operations/tool/edit.ts';
import companyToolGet from '../resources/company/operations/tool/get.ts';
import companyToolAvailable from '../resources/company/operations/tool/available.ts';
import companyEventBind from '../resources/company/operations/event/bind.ts';
import companyEventFind from '../resources/company/operations/event/find.ts';
import eventGet from '../resources/event/operations/get.ts';
import eventEdit from '../resources/event/operations/edit.ts';
import eventCheckAccessCode from '../resources/event/operations/checkAccessCode.ts';
import eventAccessCodeChallenge from '../resources/event/operations/accessCode/challenge.ts';
import eventAccessCodeFind from '../resources/event/operations/accessCode/find.ts';
import billingFind from '../resources/billing/operations/find.ts';
import billingCreate from '../resources/billing/operations/create.ts';
import { activitiesOperations } from './activities.ts';
import { relationsOperations } from './relations.ts';
import { attendanceOperations } from './attendance.ts';
import { siteOperations } from './site.ts';
import { attendeesOperations } from './attendees.ts';
import { registrationOperations } from './registration.ts';
import { peopleOperations } from './people.ts';
import { webPushOperations } from '../resources/webpush/operations/index.ts';
import { webhookOperations } from '../resources/webhook/operations/index.ts';
import { checklogOperations } from '../resources/checklog/operations/index.ts';
import { couponOperations } from '../resources/coupon/operations/index.ts';
import { applicantOperations } from '../resources/applicant/operations/index.ts';
import { guestOperations } from '../resources/guest/operations/index.ts';
import { bookingOperations } from '../resources/booking/operations/index.ts';
import { journeyOperations } from '../resources/journey/operations/index.ts';
import { socialOperations } from './social.ts';
import { ANSWERS } from '../kernel/answers.ts';
import { emailOperations } from '../resources/email/operations/index.ts';
import { backofficeOperations } from './backoffice.ts';
import { senderOperations } from '../resources/sender/operations/index.ts';
import eventSendSMS from '../resources/sms/operations/send.ts';
import { sanityOperations } from '../resources/sanity/operations/index.ts';
import { downloadOperations } from '../resources/download/operations/index.ts';

/**
 * Event content and registration (issue 3) and the modules after it, one group per area: their auth rules
 * are swept from the table by tests/api/auth.test.ts (the platform core has its matrix in access.test.ts).
 */
export const contentOperations: readonly AnyOperation[] = [
  ...activitiesOperations,
  ...relationsOperations,
  ...attendanceOperations,
  ...siteOperations,
  ...attendeesOperations,
  ...registrationOperations,
  ...webPushOperations,
  ...emailOperations,
  ...senderOperations,
  eventSendSMS,
  ...sanityOperations,
  ...checklogOperations,
  ...couponOperations,
  ...applicantOperations,
  ...guestOperations,
  ...bookingOperations,
  ...journeyOperations,
  ...webhookOperations,
  ...backofficeOperations,
  ...socialOperations,
  ...downloadOperations,
];

/** The operation table: the single source of the routes, api.describe, OpenAPI and the tests. */
export const operations: readonly AnyOperation[] = withAnswers([
  personSignIn,
  ...peopleOperations,
  apiDescribe,
  apiPing,
  changeSubscribe,
  pushSubscribe,
  companyCreate,
  companyEdit,
  companyFind,
  companyGet,
  companyPersonBind,
  companyPersonOperate,
  companyPersonDismiss,
  companyPersonFind,
  companyPersonSync,
  companyToolEdit,
  companyToolGet,
  companyToolAvailable,
  companyEventBind,
  companyEventFind,
  eventGet,
  eventEdit,
  eventCheckAccessCode,
  eventAccessCodeChallenge,
  eventAccessCodeFind,
  billingFind,
  billingCreate,
  ...contentOperations,
]);

/** Each operation with the wire row it answers (operations/answers.ts), for the OpenAPI document. */
function withAnswers(ops: readonly AnyOperation[]): AnyOperation[] {
  return ops.map((op) => (ANSWERS[op.name] && !op.answer ? { ...op, answer: ANSWERS[op.name] } : op));
}
