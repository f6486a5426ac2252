import type { z } from 'zod';
import {
  accessCodeWire,
  activityWire,
  companyWire,
  eventListItemWire,
  eventWire,
  formWire,
  passwordSetWire,
  recoverWire,
} from '../../shared/wire/index.ts';

/**
 * The wire row (src/shared/wire) each operation answers, for the operations not made by a factory
 * (those carry their resource's row themselves). The operation table sets `answer` from here.
 */
export const ANSWERS: Readonly<Record<string, z.ZodObject>> = {
  'company.get': companyWire,
  'company.event.find': eventListItemWire,
  'event.get': eventWire,
  'event.checkAccessCode': accessCodeWire,
  'activity.find': activityWire,
  'activity.get': activityWire,
  'form.get': formWire,
  'person.confirm': passwordSetWire,
  'person.recover': recoverWire,
};
