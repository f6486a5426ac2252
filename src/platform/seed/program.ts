import type { Insertable, Kysely } from 'kysely';
import type { ActivityTable, DB } from '../db/schema.ts';
import { fromWallTime, wallTime } from '../resources/time.ts';

// The demo's program: deterministic (no randomness), so the site, the widgets, the end-to-end tests
// and the benchmarks all see the same event. Straight inserts: the seed runs before any token exists.

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

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Seeds an event's program: activities across `days` × 6 rooms, speakers bound to them, tracks as
 * activity tags, attendee-type tags, 12 sponsors in 3 tiers, hotsite sections of every kind and a
 * registration form with three custom fields. `firstDay` is the Unix time of the first day's 00:00.
 */
export async function seedProgram(
  trx: Kysely<DB>,
  event: { eventID: number; companyID: number; timezone: string; firstDay: number },
  size: ProgramSize,
  now: number,
): Promise<void> {
  const { eventID, companyID } = event;
  const tracks = await trx
    .insertInto('tag')
    .values(TRACKS.map(([name, color]) => ({ companyID, eventID, name, color, kind: 'activity' })))
    .returning('tagID')
    .execute();
  await trx
    .insertInto('tag')
    .values(ATTENDEE_TYPES.map((name) => ({ companyID, eventID, name, kind: 'attendee' })))
    .execute();

  const speakers = await trx
    .insertInto('speaker')
    .values(
      Array.from({ length: size.speakers }, (_, i) => {
        const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
        const org = ORGS[i % ORGS.length];
        return {
          eventID,
          name,
          headline: `${ROLES[i % ROLES.length]} at ${org}`,
          description: `<p>${name} works on ${TOPICS[i % TOPICS.length].toLowerCase()} at ${org} and speaks about it often.</p>`,
          category: i < 6 ? 'Keynote' : 'Speaker',
          image: `https://images.podium.test/speakers/${slug(name)}.jpg`,
          website: `https://${slug(org)}.example.com`,
          position: i + 1,
        };
      }),
    )
    .returning('speakerID')
    .execute();

  const sponsors = await trx
    .insertInto('sponsor')
    .values(
      SPONSORS.map(([tier, name, tierRank], i) => ({
        eventID,
        companyName: name,
        name,
        website: `https://${slug(name)}.example.com`,
        logo: `https://images.podium.test/sponsors/${slug(name)}.svg`,
        bio: `<p>${name} supports the ${tier.toLowerCase()} tier of this event.</p>`,
        category: tier,
        tier,
        tierRank,
        position: i + 1,
      })),
    )
    .returning('sponsorID')
    .execute();

  const day0 = wallTime(event.firstDay, event.timezone);
  const rows: Insertable<ActivityTable>[] = [];
  const perDay = Math.ceil(size.activities / size.days);
  for (let n = 0; n < size.activities; n++) {
    const day = Math.floor(n / perDay);
    const room = (n % perDay) % ROOMS.length;
    const slotIndex = Math.floor((n % perDay) / ROOMS.length) % SLOTS.length;
    const [hour, minute, length] = SLOTS[slotIndex];
    const begin = fromWallTime({ ...day0, day: day0.day + day, hour, minute, second: 0 }, event.timezone);
    // Format × topic gives 105 distinct titles before any repeats (which then say "part 2").
    const topic = TOPICS[Math.floor(n / FORMATS.length) % TOPICS.length];
    const keynote = room === 0 && slotIndex === 0;
    const title = keynote ? `Keynote: ${topic}` : `${FORMATS[n % FORMATS.length]} ${topic}`;
    const name = n >= FORMATS.length * TOPICS.length ? `${title}, part 2` : title;
    rows.push({
      eventID,
      name,
      description: `<p>${title}: what worked, what did not, and what we would do again.</p>`,
      location: ROOMS[room],
      dateBegin: begin,
      dateEnd: begin + length * 60,
      capacity: room === 3 ? 30 : 0,
      highlight: keynote ? 1 : 0,
      dateCreated: now,
      updatedDate: now,
    });
  }
  const activities = [];
  // Chunks keep each INSERT under SQLite's limit on bound parameters.
  for (let i = 0; i < rows.length; i += 50)
    activities.push(
      ...(await trx
        .insertInto('activity')
        .values(rows.slice(i, i + 50))
        .returning('activityID')
        .execute()),
    );

  const links = activities.map((a, n) => ({
    speakers: [speakers[n % speakers.length], ...(n % 4 === 0 ? [speakers[(n + 13) % speakers.length]] : [])],
    tags: [tracks[n % tracks.length], ...(n % 3 === 0 ? [tracks[(n + 2) % tracks.length]] : [])],
    activityID: a.activityID,
  }));
  const speakerRows = links.flatMap((l) =>
    l.speakers.map((s) => ({ activityID: l.activityID, speakerID: s.speakerID })),
  );
  const tagRows = links.flatMap((l) => l.tags.map((t) => ({ activityID: l.activityID, tagID: t.tagID })));
  for (let i = 0; i < speakerRows.length; i += 200)
    await trx
      .insertInto('activitySpeaker')
      .values(speakerRows.slice(i, i + 200))
      .execute();
  for (let i = 0; i < tagRows.length; i += 200)
    await trx
      .insertInto('activityTag')
      .values(tagRows.slice(i, i + 200))
      .execute();
  // Keynotes are presented by the platinum sponsors.
  const keynotes = activities.filter((_, n) => rows[n].highlight === 1);
  if (keynotes.length > 0)
    await trx
      .insertInto('activitySponsor')
      .values(keynotes.map((a, i) => ({ activityID: a.activityID, sponsorID: sponsors[i % 2].sponsorID })))
      .execute();
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
  await trx
    .insertInto('hotsite')
    .values(DEMO_SECTIONS.map((s, i) => ({ eventID, ...s, position: i + 1 })))
    .execute();
}

/**
 * The registration form of the demo: three custom fields, one of them a required select. (Every row
 * names every column: SQLite has no DEFAULT in a multi-row VALUES list, so a missing one is NULL.)
 */
export async function seedForm(trx: Kysely<DB>, eventID: number): Promise<void> {
  await trx
    .insertInto('feedback')
    .values([
      {
        eventID,
        name: 'Company size',
        type: 'select',
        options: JSON.stringify(['1-10', '11-50', '51-200', 'More than 200']),
        apiKey: 'companySize',
        required: 1,
        position: 1,
      },
      { eventID, name: 'Dietary needs', type: 'text', options: '[]', apiKey: 'dietary', required: 0, position: 2 },
      {
        eventID,
        name: 'Send me news about future events',
        type: 'checkbox',
        options: '[]',
        apiKey: 'newsletter',
        required: 0,
        position: 3,
      },
    ])
    .execute();
}
