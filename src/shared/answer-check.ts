// The format checks of a form's typed answers (date, number, e-mail, telephone): the platform refuses an
// answer by them (src/platform/resources/form/fields.ts), and /me (src/site/me.ts) runs the same checks
// on every answer before it sends them, so that it can say each wrong answer at once rather than the
// platform's first refusal alone.

import type { Refused } from './refused.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^-?\d{1,15}(\.\d{1,10})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TELEPHONE = /^\+?[0-9 ().-]{3,40}$/;

function validDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * What is wrong with a trimmed, non-empty answer `v` to a field of `type`, by the check its type has;
 * undefined when it passes, or when the type has none of these checks (choices, URLs and lengths are
 * the platform's alone).
 */
export function formatRefusal(type: string, v: string): Refused | undefined {
  switch (type) {
    case 'date':
      return validDate(v) ? undefined : 'date';
    case 'number':
      return NUMBER.test(v) ? undefined : 'number';
    case 'email':
      return v.length <= 320 && EMAIL.test(v) ? undefined : 'email';
    case 'telephone':
      return TELEPHONE.test(v) && (v.match(/\d/g)?.length ?? 0) >= 3 ? undefined : 'telephone';
    default:
      return undefined;
  }
}
