// Where a refused registration's message goes. The platform refuses, with a 4xx and one line, what the
// browser's own checks let through (an e-mail without a dot in its domain, a telephone of letters, an
// invite that does not match); the line starts with what it is about: `email …`, `feedbackContent field
// 12 (Company) …`. Rare next to a registration that goes through, so this is a chunk of its own, loaded
// by the form when a refusal comes (a refusal means the platform answered, so the chunk can load too).
// It says its messages itself (podium:messages-via-host): the build gives it its English ones.

/** The platform's parameter names that are another control's. */
const CONTROL: Record<string, string> = { invite: 'email', username: 'email', tagIDs: 'tag' };

import type { MessageKey } from '../../internal/locale.ts';
import { refusedAs, type Refused } from '../../../../src/shared/refused.ts';

/** The build's English messages of this module (podium:messages-via-host, widgets/build.mjs). */
declare const podiumOwnMessages$: Record<string, string> | undefined;

/** What of the form this part uses. */
interface Form {
  t(key: MessageKey): string;
  language: string;
}

/**
 * The refusals the form says in the visitor's language (the platform's line is English), by what they
 * mean (src/shared/refused.ts): an empty or unchecked required field, an e-mail address the browser took
 * but the platform did not (`ana@exemplo`), and a date, a number or a telephone the browser's own input
 * let through (a year of five digits, a browser without a date picker). A URL's rare refusal stays in
 * the platform's words. The words are /me's (src/site/me.ts) where the form has none of its own.
 */
const KNOWN: Partial<Record<Refused, MessageKey>> = {
  empty: 'form.fieldRequired',
  unchecked: 'form.fieldRequired',
  consent: 'form.fieldRequired',
  email: 'form.fieldInvalid.email',
  date: 'me.answerInvalid.date',
  number: 'me.answerInvalid.number',
  telephone: 'me.answerInvalid.telephone',
};

/**
 * The form's errors for a refusal `message`: `{ <control>: text }` for the control it is about when the
 * form has it (`controls`: their names), else `{ '': text }` for the form. A refusal the form knows is
 * said in the visitor's language (the messages of `el`, the form); any other is the platform's text,
 * without the name of the field it sits next to.
 */
export function refusal(message: string, controls: string[], el: unknown): Record<string, string> {
  const form = el as Form;
  const own = typeof podiumOwnMessages$ === 'undefined' || form.language !== 'en' ? undefined : podiumOwnMessages$;
  const [, id, param = '', rest = ''] =
    /^(?:feedbackContent field (\d+)(?: \(.*?\))?|(firstName|lastName|email|tagIDs|consent|invite|username)) (.*)/s.exec(
      message,
    ) ?? [];
  let name = id ? `f${id}` : (CONTROL[param] ?? param);
  if (!controls.includes(name)) name = '';
  const text = name ? rest.trim() : message;
  const as = refusedAs(message);
  const known = as && KNOWN[as];
  return { [name]: known ? (own?.[known] ?? form.t(known)) : text.charAt(0).toUpperCase() + text.slice(1) };
}

// The "add a guest" part comes in this chunk too: both are the form's rare paths, and one chunk named
// twice costs the form's own download less than two (guests.ts).
export { guests } from './guests.ts';

// "Already registered? Get your link" and the panel after registering too, for the same reason (link.ts,
// success.ts).
export { link } from './link.ts';
export { success } from './success.ts';
