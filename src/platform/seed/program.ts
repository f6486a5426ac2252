import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { fromWallTime, wallTime } from '../resources/time.ts';
import { parseEdit } from '../edit.ts';
import { TAG } from '../resources/tag/repository.ts';
import { SPEAKER } from '../resources/speaker/repository.ts';
import { SPONSOR } from '../resources/sponsor/repository.ts';
import { insertActivities, newActivity, type ActivityInput } from '../resources/activity/repository.ts';
import { CREATE_FIELDS, EDIT_KEYS, type CreateField } from '../resources/activity/fields.ts';
import { bindPair } from '../resources/relation/common.ts';
import { checkSectionRoom, SECTION } from '../resources/hotsite/repository.ts';
import { updateRow } from '../resources/rows.ts';
import { checkNewField, FEEDBACK } from '../resources/feedback/repository.ts';
import { NO_PHOTO_EVERY, slug, speakerPhotoPath, sponsorLogoPath } from './media.ts';

// The demo's program: deterministic (no randomness), so the site, the widgets, the end-to-end tests
// and the benchmarks all see the same event. It creates through the resources' repositories and
// their parsers, as the API does; it runs before any token exists, so it does not go through operations.

const ROOMS = ['Main Hall', 'Tejo Room', 'Douro Room', 'Workshop Lab', 'Studio', 'Garden Stage'];
const TRACKS: [string, string][] = [
  ['Product', '#4f46e5'],
  ['Engineering', '#0f766e'],
  ['Design', '#be185d'],
  ['Community', '#b45309'],
  ['Business', '#1d4ed8'],
  ['Accessibility', '#15803d'],
];
const ATTENDEE_TYPES = ['Attendee', 'Student', 'Press'];

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Filipe', 'Grace', 'Hugo', 'Inês', 'João', 'Kofi', 'Lucía', 'Marta', 'Nuno', 'Olga', 'Pedro', 'Quinn', 'Rita', 'Sofia', 'Tomás']; // prettier-ignore
const LAST = ['Almeida', 'Barros', 'Costa', 'Duarte', 'Esteves', 'Ferreira', 'Gomes', 'Henriques', 'Iglesias', 'Jansen', 'Kowalski', 'Lopes', 'Moreira', 'Nakamura', 'Okafor', 'Pereira', 'Quental', 'Ribeiro', 'Santos', 'Teixeira']; // prettier-ignore
const ROLES = ['Staff Engineer', 'Product Lead', 'Design Director', 'Community Manager', 'CTO', 'Researcher', 'Founder', 'Accessibility Specialist']; // prettier-ignore
const ORGS = ['Lumen Labs', 'Atlântico', 'Northwind', 'Feira Digital', 'Orbit', 'Casa Aberta', 'Kite Systems', 'Verde'];

const TOPICS = ['Event Check-in', 'Offline-first Apps', 'Inclusive Design', 'Pricing Experiments', 'Volunteer Programs', 'Realtime Schedules', 'Web Components', 'Accessible Forms', 'Sponsor Relations', 'Hybrid Events', 'Data Privacy', 'Ticketing at Scale', 'Community Health', 'Mobile Performance', 'Design Systems']; // prettier-ignore
const FORMATS = [
  'Lessons from',
  'A practical guide to',
  'The future of',
  'Workshop:',
  'Panel:',
  'Myths about',
  'Scaling',
];

const SPONSORS: [string, string, number][] = [
  ['Platinum', 'Lumen Labs', 1], ['Platinum', 'Atlântico Bank', 1],
  ['Gold', 'Northwind', 2], ['Gold', 'Kite Systems', 2], ['Gold', 'Orbit Cloud', 2], ['Gold', 'Feira Digital', 2],
  ['Silver', 'Casa Aberta', 3], ['Silver', 'Verde Energia', 3], ['Silver', 'Pixel & Co', 3],
  ['Silver', 'Tinta Studio', 3], ['Silver', 'Ponte Labs', 3], ['Silver', 'Sal Coffee', 3],
]; // prettier-ignore

const SLOTS = [
  [9, 0, 60],
  [10, 15, 45],
  [11, 15, 45],
  [12, 15, 45],
  [14, 0, 60],
  [15, 15, 45],
  [16, 15, 45],
  [17, 15, 45],
] as const;

export interface ProgramSize {
  days: number;
  /** How many activities to create (spread over days × rooms × slots, in slot order). */
  activities: number;
  speakers: number;
}

export const DEMO_PROGRAM: ProgramSize = { days: 3, activities: 120, speakers: 40 };

const speakerName = (i: number) => `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;

/** The demo's speakers and sponsors by name, in position order (media.ts draws their pictures). */
export const DEMO_SPEAKER_NAMES = Array.from({ length: DEMO_PROGRAM.speakers }, (_, i) => speakerName(i));
export const DEMO_SPONSOR_NAMES = SPONSORS.map(([, name]) => name);

/**
 * Seeds an event's program: activities across `days` × 6 rooms, speakers bound to them, tracks as
 * activity tags, attendee-type tags, 12 sponsors in 3 tiers, hotsite sections of every kind and a
 * registration form with three custom fields. `firstDay` is the Unix time of the first day's 00:00.
 * `mediaUrl`: the platform's address as browsers reach it, where it serves the demo's pictures
 * (media.ts); without it speakers and sponsors have none.
 */
export async function seedProgram(
  trx: Kysely<DB>,
  event: { eventID: number; companyID: number; timezone: string; firstDay: number; mediaUrl?: string },
  size: ProgramSize,
  now: number,
): Promise<void> {
  const { eventID, companyID } = event;
  // Through the resources' own parse and insert: what the API's create operations check, the seed
  // checks (values go in as the strings a request would carry).
  const tag = (name: string, kind: string, color?: string) =>
    TAG.insert(trx, eventID, TAG.parse({ name, color, kind }), { companyID });
  const tracks: number[] = [];
  for (const [name, color] of TRACKS) tracks.push(await tag(name, 'activity', color));
  for (const name of ATTENDEE_TYPES) await tag(name, 'attendee');

  const speakers: number[] = [];
  for (let i = 0; i < size.speakers; i++) {
    const name = speakerName(i);
    const org = ORGS[i % ORGS.length];
    const input = {
      name,
      headline: `${ROLES[i % ROLES.length]} at ${org}`,
      description: `<p>${name} works on ${TOPICS[i % TOPICS.length].toLowerCase()} at ${org} and speaks about it often.</p>`,
      category: i < 6 ? 'Keynote' : 'Speaker',
      // Some speakers have no photo, as in a real program: the site shows their initials.
      image:
        event.mediaUrl && (i + 1) % NO_PHOTO_EVERY !== 0 ? `${event.mediaUrl}${speakerPhotoPath(name)}` : undefined,
      website: `https://${slug(org)}.example.com`,
      position: String(i + 1),
    };
    speakers.push(await SPEAKER.insert(trx, eventID, SPEAKER.parse(input)));
  }

  const sponsors: number[] = [];
  for (const [i, [tier, name, tierRank]] of SPONSORS.entries()) {
    const input = {
      companyName: name,
      name,
      website: `https://${slug(name)}.example.com`,
      // The last has no logo, as happens: the site shows its name in the logo's place.
      logo: event.mediaUrl && i < SPONSORS.length - 1 ? `${event.mediaUrl}${sponsorLogoPath(name)}` : undefined,
      bio: `<p>${name} supports the ${tier.toLowerCase()} tier of this event.</p>`,
      category: tier,
      tier,
      tierRank: String(tierRank),
      position: String(i + 1),
    };
    sponsors.push(await SPONSOR.insert(trx, eventID, SPONSOR.parse(input)));
  }

  const day0 = wallTime(event.firstDay, event.timezone);
  const rows = [];
  const keynote: boolean[] = [];
  const perDay = Math.ceil(size.activities / size.days);
  for (let n = 0; n < size.activities; n++) {
    const day = Math.floor(n / perDay);
    const room = (n % perDay) % ROOMS.length;
    const slotIndex = Math.floor((n % perDay) / ROOMS.length) % SLOTS.length;
    const [hour, minute, length] = SLOTS[slotIndex];
    const begin = fromWallTime({ ...day0, day: day0.day + day, hour, minute, second: 0 }, event.timezone);
    // Format × topic gives 105 distinct titles before any repeats (which then say "part 2").
    const topic = TOPICS[Math.floor(n / FORMATS.length) % TOPICS.length];
    keynote.push(room === 0 && slotIndex === 0);
    const title = keynote[n] ? `Keynote: ${topic}` : `${FORMATS[n % FORMATS.length]} ${topic}`;
    const input = {
      name: n >= FORMATS.length * TOPICS.length ? `${title}, part 2` : title,
      description: `<p>${title}: what worked, what did not, and what we would do again.</p>`,
      location: ROOMS[room],
      dateBegin: String(begin),
      dateEnd: String(begin + length * 60),
      capacity: String(room === 3 ? 30 : 0),
    };
    rows.push(newActivity(parseActivity(input), { eventID, dateBegin: begin }, 0, now));
  }
  const activities = await insertActivities(trx, rows);
  // Keynotes are highlighted (activity.edit's key) and presented by the platinum sponsors.
  const highlight = parseEdit(EDIT_KEYS, 'highlight', '1');
  for (const [i, activityID] of activities.filter((_, n) => keynote[n]).entries()) {
    await updateRow(trx, 'activity', 'activityID', activityID, { [highlight.column]: highlight.value });
    await bindPair(trx, 'activitySponsor', { activityID, sponsorID: sponsors[i % 2] });
  }
  for (const [n, activityID] of activities.entries()) {
    const its = [speakers[n % speakers.length], ...(n % 4 === 0 ? [speakers[(n + 13) % speakers.length]] : [])];
    for (const speakerID of its) await bindPair(trx, 'activitySpeaker', { activityID, speakerID });
    const tags = [tracks[n % tracks.length], ...(n % 3 === 0 ? [tracks[(n + 2) % tracks.length]] : [])];
    for (const tagID of tags) await bindPair(trx, 'activityTag', { activityID, tagID });
  }
}

/** An activity's create fields as activity.create parses them (strings in, checked values out). */
function parseActivity(input: Readonly<Record<CreateField, string>>): ActivityInput {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(CREATE_FIELDS)) out[key] = schema.parse(input[key as CreateField]);
  return out as unknown as ActivityInput;
}

/** Hotsite sections of every kind, in the order the site shows them. */
export const DEMO_SECTIONS: { section: string; name: string; text: string }[] = [
  {
    section: 'text',
    name: 'About',
    text: '<p>Podium Summit brings together the people who build events: organizers, engineers, designers and the communities they serve.</p><p>Expect practical talks, hands-on workshops and long coffee breaks.</p>',
  },
  { section: 'schedule', name: 'Program', text: '' },
  { section: 'speakers', name: 'Speakers', text: '' },
  { section: 'registration', name: 'Register', text: '<p>Registration is free. Seats in workshops are limited.</p>' },
  { section: 'sponsors', name: 'Sponsors', text: '' },
  {
    section: 'location',
    name: 'Venue',
    text: '<p>Podium Hall is a five-minute walk from the Baixa-Chiado metro station. Step-free access on every floor.</p>',
  },
  {
    section: 'faq',
    name: 'Questions',
    text: '<h3>Is there Wi-Fi?</h3><p>Yes, everywhere in the venue.</p><h3>Will talks be recorded?</h3><p>Keynotes are recorded and published a week later.</p><h3>Is the venue accessible?</h3><p>Yes: step-free access, quiet room and live captions in the Main Hall.</p>',
  },
];

export async function seedSections(trx: Kysely<DB>, eventID: number): Promise<void> {
  for (const [i, s] of DEMO_SECTIONS.entries()) {
    await checkSectionRoom(trx, eventID);
    await SECTION.insert(trx, eventID, SECTION.parse({ ...s, position: String(i + 1) }));
  }
}

/** The registration form of the demo: three custom fields, one of them a required select. */
export async function seedForm(trx: Kysely<DB>, eventID: number): Promise<void> {
  const fields = [
    {
      name: 'Company size',
      type: 'select',
      options: ['1-10', '11-50', '51-200', 'More than 200'],
      apiKey: 'companySize',
      required: 1,
    },
    { name: 'Dietary needs', type: 'text', options: [], apiKey: 'dietary', required: 0 },
    { name: 'Send me news about future events', type: 'checkbox', options: [], apiKey: 'newsletter', required: 0 },
  ];
  // Through feedback.create's parsers and rules: options fit the type, the apiKey is free, positions follow.
  for (const f of fields) {
    const values = FEEDBACK.parse({ ...f, options: JSON.stringify(f.options), required: String(f.required) });
    await checkNewField(trx, eventID, values);
    await FEEDBACK.insert(trx, eventID, values);
  }
}
