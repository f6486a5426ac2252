// The kinds of hotsite sections (spec §2.6 Hotsite section `section`): what the public site renders in
// each section of an event's website. Shared by the platform (validation), the site and the widgets, so
// this file imports nothing. Several sections of one kind may exist; `position` orders them.

export const HOTSITE_SECTIONS = [
  'cover', // the event's banner: name, dates and cover image of the event; `text` an optional tagline
  'text', // free organizer HTML in `text`, under the heading `name`
  'schedule', // the program: the event's activities by day and room; `text` an optional introduction
  'speakers', // the speakers (speaker.find), by position; `text` an optional introduction
  'sponsors', // the sponsors (sponsor.find) grouped by tier; `text` an optional introduction
  'registration', // the registration form or button (form.respondRegistration); `text` an optional note
  'location', // the venue: the event's placeName, address and map (latitude/longitude); `text` directions
  'faq', // questions and answers in `text`: <dl> with a <dt> question followed by its <dd> answer(s)
] as const;

export type HotsiteSection = (typeof HOTSITE_SECTIONS)[number];

/** One line per kind, for documentation and the admin dashboard's picker. */
export const HOTSITE_SECTION_MEANING: Readonly<Record<HotsiteSection, string>> = {
  cover: "The event's banner: name, dates and cover image; text is an optional tagline.",
  text: 'Free text: the organizer HTML in text, under the heading name.',
  schedule: "The program: the event's activities by day and room; text is an optional introduction.",
  speakers: 'The speakers of the event, by position; text is an optional introduction.',
  sponsors: 'The sponsors of the event, grouped by tier; text is an optional introduction.',
  registration: 'The registration form (or a link to it); text is an optional note above it.',
  location: "The venue: the event's place name, address and map; text holds directions.",
  faq: 'Questions and answers: text is a <dl>, each <dt> a question and the <dd> after it its answer.',
};

export function isHotsiteSection(value: string): value is HotsiteSection {
  return (HOTSITE_SECTIONS as readonly string[]).includes(value);
}
