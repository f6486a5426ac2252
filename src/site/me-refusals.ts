// The platform's refusals of an attendee's own change to their sessions, as /me says them in its
// language (the platform's line is English). Kept out of src/shared/i18n/messages.ts, which the widgets
// share and whose size is bounded (tests/shared/browser-safe.test.ts): no widget shows these.

import { t, type Locale } from '../shared/i18n/messages.ts';
import { ENROL_REFUSED, chainRefused } from '../shared/refused.ts';

const LIMITED: Record<Locale, string> = {
  en: 'This session is only open to the groups the organizers chose.',
  pt: 'Esta sessão só está aberta aos grupos escolhidos pela organização.',
  es: 'Esta sesión solo está abierta a los grupos elegidos por la organización.',
};

const CHAIN: Record<Locale, string> = {
  en: 'You already have {enrolled} of the sessions of “{name}”, which allows {max} per person.',
  pt: 'Já tem {enrolled} das sessões de “{name}”, que permite {max} por pessoa.',
  es: 'Ya tienes {enrolled} de las sesiones de “{name}”, que permite {max} por persona.',
};

/** The refusal `line` in the page's language when it is one of these, else undefined. */
export function enrolRefusal(locale: Locale, line: string): string | undefined {
  const said = line.trim();
  if (said === ENROL_REFUSED.locked) return t(locale, 'me.locked');
  if (said === ENROL_REFUSED.limited) return LIMITED[locale];
  const chain = chainRefused(said);
  return chain && CHAIN[locale].replace(/\{(\w+)\}/g, (_, k: keyof typeof chain) => chain[k]);
}
