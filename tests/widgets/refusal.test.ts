import { describe, expect, it } from 'vitest';
import { refusal } from '../../widgets/src/components/registration/refusal.ts';

// Where the registration form puts a refusal of the platform (widgets/src/components/registration/refusal.ts,
// a chunk loaded only when one comes). The browser tests (registration.test.ts) check it on a real form.

const controls = ['firstName', 'lastName', 'email', 'f12', 'tag', 'consent'];
const REQUIRED = 'This field is required.';
/** What the form says in the visitor's language: marked, so a test sees which was picked. */
const SAID: Record<string, string> = {
  'form.fieldRequired': REQUIRED,
  'form.fieldInvalid.email': '[email]',
  'me.answerInvalid.date': '[date]',
  'me.answerInvalid.number': '[number]',
  'me.answerInvalid.telephone': '[telephone]',
};
/** The form, as far as refusal() reads it: its messages. */
const form = { language: 'en', t: (key: string) => SAID[key] };

describe('refusal', () => {
  it.each([
    ['email is not a valid e-mail address', { email: 'Is not a valid e-mail address' }],
    ['feedbackContent field 12 (Phone) is not a telephone number', { f12: 'Is not a telephone number' }],
    ['feedbackContent field 12 (Phone (work)) is too long', { f12: 'Is too long' }],
    ['feedbackContent field 12 is too long', { f12: 'Is too long' }],
    ['invite does not match this e-mail', { email: 'Does not match this e-mail' }],
    ['username is taken', { email: 'Is taken' }],
    ['tagIDs 9 is not an attendee type of this event', { tag: '9 is not an attendee type of this event' }],
    ['lastName cannot be empty', { lastName: REQUIRED }],
    ['consent must be 1: this form asks to accept its consent text', { consent: REQUIRED }],
    ['feedbackContent field 12 (Rules) must be 1 (checked)', { f12: REQUIRED }],
    ['feedbackContent field 12 (Rules) cannot be empty', { f12: REQUIRED }],
    // An address the browser takes and the platform does not: in the visitor's language (its line is English).
    ['email must be an e-mail address', { email: '[email]' }],
    ['feedbackContent field 12 (Work e-mail) must be an e-mail address', { f12: '[email]' }],
    // A date, a number, a telephone the browser's own input let through (21990-03-10, a browser without a picker).
    ['feedbackContent field 12 (Age) must be a number', { f12: '[number]' }],
    ['feedbackContent field 12 (Born) must be a date as YYYY-MM-DD', { f12: '[date]' }],
    ['feedbackContent field 12 (Phone) must be a telephone number', { f12: '[telephone]' }],
    ['feedbackContent field 12 (Site) must be an http or https URL', { f12: 'Must be an http or https URL' }],
    // Not about a control the form has: the form's own message, in the platform's words.
    ['feedbackContent field 99 (Gone) is not a field', { '': 'FeedbackContent field 99 (Gone) is not a field' }],
    ['registration is closed', { '': 'Registration is closed' }],
    ['the event is full\nand closed', { '': 'The event is full\nand closed' }],
  ])('%s', (message, errors) => {
    expect(refusal(message, controls, form)).toEqual(errors);
  });
});
