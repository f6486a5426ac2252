import { b, bOpt, defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { checkSpeakerPerson, speakerByID, speakerRecord, SPEAKER_FIELD as F } from '../../domain/speaker/repository.ts';

/**
 * Podium extension (the spec lists the Speaker fields, §2.5, but not its root operations): adds a
 * speaker to the event. `description` is organizer HTML, sanitized; `personID` links the speaker to
 * an attendee of the event (one speaker per attendee).
 */
export default defineOperation({
  name: 'speaker.create',
  summary: 'Adds a speaker to an event.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: b(F.name, 'full name'),
    headline: bOpt(F.headline, 'one line: role, company'),
    description: bOpt(F.description, 'biography (HTML, sanitized)'),
    category: bOpt(F.category, 'free grouping, e.g. Keynote'),
    image: bOpt(F.image, 'photo URL (http or https)'),
    email: bOpt(F.email, 'e-mail (shown to event admins only)'),
    website: bOpt(F.website, 'website URL'),
    socialA: bOpt(F.socialA, 'profile URL on social network A'),
    socialB: bOpt(F.socialB, 'profile URL on social network B'),
    socialC: bOpt(F.socialC, 'profile URL on social network C'),
    position: bOpt(F.position, 'display order, 0 first (default 0)'),
    personID: bOpt(F.personID, 'an attendee of the event this speaker is'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    if (p.personID !== undefined) await checkSpeakerPerson(ctx.db, p.eventID, p.personID);
    const { speakerID } = await ctx.db
      .insertInto('speaker')
      .values({
        eventID: p.eventID,
        personID: p.personID ?? null,
        name: p.name,
        headline: p.headline ?? '',
        description: p.description ?? '',
        category: p.category ?? '',
        image: p.image ?? '',
        email: p.email ?? '',
        website: p.website ?? '',
        socialA: p.socialA ?? '',
        socialB: p.socialB ?? '',
        socialC: p.socialC ?? '',
        position: p.position ?? 0,
      })
      .returning('speakerID')
      .executeTakeFirstOrThrow();
    return [speakerRecord((await speakerByID(ctx.db, speakerID))!, true)];
  },
});
