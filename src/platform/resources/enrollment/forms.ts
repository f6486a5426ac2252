import { badRequest } from '../../errors.ts';

/** The forms of activity.person.bind / dismiss (spec §4.6), told apart by the parameters a call carries. */
export type Form = 'self' | 'personID' | 'email' | 'path' | 'content';

interface FormParams {
  activityID?: number;
  eventID?: number;
  personID?: number;
  name?: string;
  email?: string;
  path?: string;
  content?: string;
}

/**
 * Which form a call is. The dispatcher's variants already require activityID, or eventID + content;
 * here: one form at a time, name and email together, eventID only with content (so the event the
 * dispatcher authorized is always the one the call changes).
 */
export function formOf(p: FormParams): Form {
  const forms: Form[] = [];
  if (p.personID !== undefined) forms.push('personID');
  if (p.name !== undefined || p.email !== undefined) forms.push('email');
  if (p.path !== undefined) forms.push('path');
  if (p.content !== undefined) forms.push('content');
  if (forms.length > 1) throw badRequest(`give only one of ${forms.map(label).join(', ')}`);
  const form = forms[0] ?? 'self';
  if (form === 'content') {
    if (p.activityID !== undefined)
      throw badRequest('activityID cannot be combined with content (each item names its activity)');
    return form;
  }
  if (p.eventID !== undefined) throw badRequest('eventID is only used with content');
  if (form === 'email') {
    if (p.name === undefined) throw badRequest('name cannot be empty');
    if (p.email === undefined) throw badRequest('email cannot be empty');
  }
  return form;
}

const label = (f: Form) => (f === 'email' ? 'name + email' : f);
