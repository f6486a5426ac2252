import type { AnyOperation } from '../table.ts';
import personSignIn from './person/signIn.ts';
import apiDescribe from './api/describe.ts';
import apiPing from './api/ping.ts';
import companyCreate from './company/create.ts';
import companyEdit from './company/edit.ts';
import companyFind from './company/find.ts';
import companyGet from './company/get.ts';
import companyPersonBind from './company/person/bind.ts';
import companyPersonOperate from './company/person/operate.ts';
import companyPersonDismiss from './company/person/dismiss.ts';
import companyPersonFind from './company/person/find.ts';
import companyToolEdit from './company/tool/edit.ts';
import companyToolGet from './company/tool/get.ts';
import companyToolAvailable from './company/tool/available.ts';
import companyEventBind from './company/event/bind.ts';
import companyEventFind from './company/event/find.ts';
import eventGet from './event/get.ts';
import eventEdit from './event/edit.ts';
import eventCheckAccessCode from './event/checkAccessCode.ts';
import eventAccessCodeChallenge from './event/accessCode/challenge.ts';
import eventAccessCodeFind from './event/accessCode/find.ts';
import billingFind from './billing/find.ts';
import { activitiesOperations } from './groups/activities.ts';
import { relationsOperations } from './groups/relations.ts';
import { attendanceOperations } from './groups/attendance.ts';
import { siteOperations } from './groups/site.ts';
import { attendeesOperations } from './groups/attendees.ts';
import { registrationOperations } from './groups/registration.ts';
import { peopleOperations } from './groups/people.ts';
import { ANSWERS } from './answers.ts';

/** Event content and registration (issue 3), one group per area. */
export const contentOperations: readonly AnyOperation[] = [
  ...activitiesOperations,
  ...relationsOperations,
  ...attendanceOperations,
  ...siteOperations,
  ...attendeesOperations,
  ...registrationOperations,
];

/** The operation table: the single source of the routes, api.describe, OpenAPI and the tests. */
export const operations: readonly AnyOperation[] = withAnswers([
  personSignIn,
  ...peopleOperations,
  apiDescribe,
  apiPing,
  companyCreate,
  companyEdit,
  companyFind,
  companyGet,
  companyPersonBind,
  companyPersonOperate,
  companyPersonDismiss,
  companyPersonFind,
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
  ...contentOperations,
]);

/** Each operation with the wire row it answers (operations/answers.ts), for the OpenAPI document. */
function withAnswers(ops: readonly AnyOperation[]): AnyOperation[] {
  return ops.map((op) => (ANSWERS[op.name] && !op.answer ? { ...op, answer: ANSWERS[op.name] } : op));
}
