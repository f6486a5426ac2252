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
