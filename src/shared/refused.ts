// The platform refuses one bad value with a line that ends with what is wrong with it
// (`feedbackContent field 12 (Phone) must be a telephone number`). The endings below are the ones a form
// says again in its visitor's language: the platform writes them from here, and /me (src/site/me.ts) and
// the registration widget (refusal.ts) recognise them from here, so new words on one side cannot leave
// the other matching nothing.

/** The endings of the platform's refusals of one value that the forms translate, by what they mean. */
export const REFUSED = {
  empty: 'cannot be empty',
  unchecked: 'must be 1 (checked)',
  consent: 'must be 1: this form asks to accept its consent text',
  email: 'must be an e-mail address',
  date: 'must be a date as YYYY-MM-DD',
  number: 'must be a number',
  telephone: 'must be a telephone number',
} as const;

export type Refused = keyof typeof REFUSED;

/** What a refusal `line` means, by how it ends; undefined for any other line. */
export function refusedAs(line: string): Refused | undefined {
  const said = line.trim();
  return (Object.keys(REFUSED) as Refused[]).find((k) => said.endsWith(REFUSED[k]));
}

/**
 * The platform's refusals of an attendee's own change to their sessions (403, 409) that /me says in its
 * language (src/site/me-refusals.ts); the platform writes them from here (src/platform/resources/
 * enrollment).
 */
export const ENROL_REFUSED = {
  full: 'activity is full',
  limited: 'this activity is limited to the people of its lists',
  locked: 'this activity is locked: only event admins can change its attendees',
} as const;

/** The chain rule's refusal: `whom` is `you are` (the attendee's own call) or `person 12 is`. */
export const chainRefusal = (whom: string, enrolled: number, chain: { name: string; chainID: number; max: number }) =>
  `${whom} already enrolled in ${enrolled} of the activities of chain "${chain.name}" (chainID ${chain.chainID}), which allows at most ${chain.max} per person`;

const CHAIN =
  /^you are already enrolled in (\d+) of the activities of chain "(.*)" \(chainID \d+\), which allows at most (\d+) per person$/s;

/** The parts of the attendee's own chain refusal (see chainRefusal); undefined for any other line. */
export function chainRefused(line: string): { enrolled: string; name: string; max: string } | undefined {
  const m = CHAIN.exec(line.trim());
  return m ? { enrolled: m[1], name: m[2], max: m[3] } : undefined;
}
