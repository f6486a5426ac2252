// Where a refused registration's message goes. The platform refuses, with a 4xx and one line, what the
// browser's own checks let through (an e-mail without a dot in its domain, a telephone of letters, an
// invite that does not match); the line starts with what it is about: `email …`, `feedbackContent field
// 12 (Company) …`. Rare next to a registration that goes through, so this is a chunk of its own, loaded
// by the form when a refusal comes (a refusal means the platform answered, so the chunk can load too).

/** The platform's parameter names that are another control's. */
const CONTROL: Record<string, string> = { invite: 'email', username: 'email', tagIDs: 'tag' };

/**
 * The form's errors for a refusal `message`: `{ <control>: text }` for the control it is about when the
 * form has it (`controls`: their names), else `{ '': text }` for the form. The text is the platform's,
 * without the name of the field it sits next to; an empty required field says `required` (the visitor's
 * language) instead.
 */
export function refusal(message: string, controls: string[], required: string): Record<string, string> {
  const [, id, param = '', rest = ''] =
    /^(?:feedbackContent field (\d+)(?: \(.*?\))?|(firstName|lastName|email|tagIDs|consent|invite|username)) (.*)/s.exec(
      message,
    ) ?? [];
  let name = id ? `f${id}` : (CONTROL[param] ?? param);
  if (!controls.includes(name)) name = '';
  const text = name ? rest.trim() : message;
  return {
    [name]: /cannot be empty|must be 1/.test(message) ? required : text.charAt(0).toUpperCase() + text.slice(1),
  };
}

// The "add a guest" part comes in this chunk too: both are the form's rare paths, and one chunk named
// twice costs the form's own download less than two (guests.ts).
export { guests } from './guests.ts';

// "Already registered? Get your link" and the panel after registering too, for the same reason (link.ts,
// success.ts).
export { link } from './link.ts';
export { success } from './success.ts';
