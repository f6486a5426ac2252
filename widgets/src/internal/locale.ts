import { localeOf, messages } from '../../../src/shared/i18n/messages.ts';
import type { Locale } from '../../../src/shared/i18n/messages.ts';

export { t, tp } from '../../../src/shared/i18n/messages.ts';
export type { Locale, MessageKey, MessageVars } from '../../../src/shared/i18n/messages.ts';

/**
 * The language a widget speaks: its `locale` attribute, else the page's (the nearest `lang`, so a
 * Portuguese page shows Portuguese widgets), else the event's language, else the browser's; English
 * when none of these is en, pt or es.
 */
export function widgetLocale(host: HTMLElement, attribute: string, eventLanguage?: string): Locale {
  for (const tag of [attribute, host.closest('[lang]')?.getAttribute('lang'), eventLanguage, ...navigator.languages]) {
    const locale = localeOf(tag);
    if (locale) return locale;
  }
  return 'en';
}

const pending = new Map<Locale, Promise<unknown>>();

/** The messages of a language other than English, each a module of its own (a chunk of the build). */
const LOCALE_MODULES: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Record<string, string> }>> = {
  pt: () => import('../locales/pt.ts'),
  es: () => import('../locales/es.ts'),
};

/**
 * The built widgets carry the messages in English only; Portuguese and Spanish are chunks of their own
 * (widgets/src/locales/), loaded when a widget first speaks them (one that fails to load leaves
 * English). Answers the load while it is under way, else undefined. (From sources, as in the component
 * tests, every language is already there.)
 */
export function loadLocale(locale: Locale): Promise<unknown> | undefined {
  if (locale === 'en' || Object.keys(messages[locale]).length > 0) return undefined;
  let load = pending.get(locale);
  if (!load) {
    load = LOCALE_MODULES[locale]()
      .then((m) => Object.assign(messages[locale], m.default))
      .catch(() => Object.assign(messages[locale], { missing: '' }));
    pending.set(locale, load);
  }
  return load;
}
