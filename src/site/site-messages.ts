// Texts of the site's pages that no widget shows, in the site's three languages. Kept out of
// src/shared/i18n/messages.ts on purpose: that catalogue is the widgets' too and has a gzip growth bound
// (tests/shared/browser-safe.test.ts); these are rendered on the server only. (The check-in page keeps
// its own, src/site/checkin-messages.ts, as its script needs some of them.)

import type { Locale } from '../shared/i18n/messages.ts';

const en = {
  preview: 'Preview: this event is hidden until it is published. Only people with the preview link see it.',
};

type SiteKey = keyof typeof en;

const pt: Record<SiteKey, string> = {
  preview: 'Pré-visualização: este evento está oculto até ser publicado. Só quem tem o link de pré-visualização o vê.',
};

const es: Record<SiteKey, string> = {
  preview:
    'Vista previa: este evento está oculto hasta que se publique. Solo quien tiene el enlace de vista previa lo ve.',
};

const CATALOGUE: Record<Locale, Record<SiteKey, string>> = { en, pt, es };

/** A site text in the page's language. */
export const siteText = (locale: Locale, key: SiteKey): string => CATALOGUE[locale][key];
