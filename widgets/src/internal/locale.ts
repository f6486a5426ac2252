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

/**
 * The built bundles carry the messages in English only; Portuguese and Spanish are the files
 * podium-locale-pt.js and podium-locale-es.js next to the bundle, loaded when a widget first speaks
 * them (a missing file leaves English). Answers the load while it is under way, else undefined.
 * (From sources, as in the component tests, every language is already there.)
 */
export function loadLocale(locale: Locale): Promise<unknown> | undefined {
  if (Object.keys(messages[locale]).length > 0) return undefined;
  let load = pending.get(locale);
  if (!load) {
    load = import(new URL(`./podium-locale-${locale}.js`, import.meta.url).href)
      .then((m: { default: Record<string, string> }) => Object.assign(messages[locale], m.default))
      .catch(() => Object.assign(messages[locale], { missing: '' }));
    pending.set(locale, load);
  }
  return load;
}
