// Texts of the site's pages that no widget shows, in the site's three languages. Kept out of
// src/shared/i18n/messages.ts on purpose: that catalogue is the widgets' too and has a gzip growth bound
// (tests/shared/browser-safe.test.ts); these are rendered on the server only. (The check-in page keeps
// its own, src/site/checkin-messages.ts, as its script needs some of them.)

import type { Locale } from '../shared/i18n/messages.ts';

const en = {
  preview: 'Preview: this event is hidden until it is published. Only people with the preview link see it.',
  previewRegistration:
    'The registration form shows here once the event is published: nobody can register in a preview.',
  previewChanges: 'Changes to the program are listed here from when the event is published.',
};

type SiteKey = keyof typeof en;

const pt: Record<SiteKey, string> = {
  preview: 'Pré-visualização: este evento está oculto até ser publicado. Só quem tem o link de pré-visualização o vê.',
  previewRegistration:
    'O formulário de inscrição aparece aqui quando o evento for publicado: ninguém se inscreve numa pré-visualização.',
  previewChanges: 'As alterações à programação aparecem aqui a partir da publicação do evento.',
};

const es: Record<SiteKey, string> = {
  preview:
    'Vista previa: este evento está oculto hasta que se publique. Solo quien tiene el enlace de vista previa lo ve.',
  previewRegistration:
    'El formulario de inscripción aparece aquí cuando se publique el evento: nadie se inscribe en una vista previa.',
  previewChanges: 'Los cambios del programa aparecen aquí a partir de la publicación del evento.',
};

const CATALOGUE: Record<Locale, Record<SiteKey, string>> = { en, pt, es };

/** A site text in the page's language. */
export const siteText = (locale: Locale, key: SiteKey): string => CATALOGUE[locale][key];
