// What the site reads from the platform's answers, validated with zod. Every scalar on the wire is a
// string (spec §1.2); the schemas say which fields the site uses and keep unknown ones out. Fields the
// platform may leave out in a shape (a private event's gate, for instance) default to ''.

import { z } from 'zod';

/** A string field the site reads; missing → ''. */
const s = z.string().default('');
/** An id field: decimal digits. */
const id = z.string().regex(/^\d+$/, 'must be an id');

export const companySchema = z.object({
  companyID: id,
  /** The company's public nickname: /{namespace}. */
  namespace: s,
  shortName: s,
  storeTitle: s,
  cover: s,
  appIcon: s,
  /** Theme: primary color (#rrggbb). */
  mainColor: s,
  /** Theme: page background (#rrggbb). */
  backgroundColor: s,
  language: s,
  keywords: s,
});
export type Company = z.infer<typeof companySchema>;

/** One item of company.event.find (public list shape plus companyID, timezone, language). */
export const eventListItemSchema = z.object({
  eventID: id,
  companyID: s,
  name: s,
  nickname: s,
  description: s,
  cover: s,
  dateBegin: s,
  dateEnd: s,
  address: s,
  city: s,
  state: s,
  fugleman: s,
  visible: s,
  public: s,
  timezone: s,
  language: s,
});
export type EventListItem = z.infer<typeof eventListItemSchema>;

/**
 * event.get: the public shape of a visible public event, or the gate shape of a private one (eventID,
 * companyID, name, nickname, cover, background, timezone, language, public, visible; the rest '').
 */
export const eventSchema = z.object({
  eventID: id,
  companyID: s,
  name: s,
  nickname: s,
  description: s,
  cover: s,
  background: s,
  fontFamily: s,
  dateBegin: s,
  dateEnd: s,
  timezone: s,
  language: s,
  keywords: s,
  placeName: s,
  address: s,
  city: s,
  state: s,
  latitude: s,
  longitude: s,
  fugleman: s,
  email: s,
  website: s,
  ticketURL: s,
  socialA: s,
  socialC: s,
  cname: s,
  presential: s,
  visible: s,
  public: s,
  archived: s,
  dateCreated: s,
  happeningNow: s,
});
export type PodiumEvent = z.infer<typeof eventSchema>;

export const sectionSchema = z.object({
  sectionID: id,
  eventID: s,
  /** The kind (src/shared/hotsite.ts). */
  section: s,
  position: s,
  name: s,
  /** Organizer HTML (sanitized by the platform; the site sanitizes again). */
  text: s,
});
export type HotsiteSectionRow = z.infer<typeof sectionSchema>;

const sessionSpeakerSchema = z.object({ speakerID: id, name: s, headline: s, image: s });
const sessionTagSchema = z.object({ tagID: id, name: s, color: s });

export const activitySchema = z.object({
  activityID: id,
  eventID: s,
  name: s,
  description: s,
  location: s,
  dateBegin: s,
  dateEnd: s,
  capacity: s,
  highlight: s,
  stream: s,
  speakers: z.array(sessionSpeakerSchema).default([]),
  tags: z.array(sessionTagSchema).default([]),
});
export type Activity = z.infer<typeof activitySchema>;

export const speakerSchema = z.object({
  speakerID: id,
  eventID: s,
  name: s,
  headline: s,
  description: s,
  category: s,
  image: s,
  website: s,
  socialA: s,
  socialB: s,
  socialC: s,
  position: s,
});
export type Speaker = z.infer<typeof speakerSchema>;

export const sponsorSchema = z.object({
  sponsorID: id,
  eventID: s,
  name: s,
  companyName: s,
  website: s,
  bio: s,
  logo: s,
  category: s,
  tier: s,
  tierRank: s,
  position: s,
});
export type Sponsor = z.infer<typeof sponsorSchema>;

export const tagSchema = z.object({ tagID: id, eventID: s, name: s, color: s, kind: s });
export type Tag = z.infer<typeof tagSchema>;

export const accessCodeSchema = z.object({ eventID: id, correct: s, required: s, grant: s });
export type AccessCodeAnswer = z.infer<typeof accessCodeSchema>;

/**
 * person.confirm (Podium extension): whose password was set. The answer also holds a new system-scope
 * tokenID; it is left out here on purpose: the site has no sign-in, so it never keeps the token.
 */
export const passwordSetSchema = z.object({ personID: id, username: s });
export type PasswordSet = z.infer<typeof passwordSetSchema>;

/**
 * person.recover (Podium extension): the address a link was asked for and `sent` "1". The platform
 * answers the same whether or not an account uses the address, so nothing here tells which.
 */
export const recoverSchema = z.object({ email: s, sent: s });
export type RecoverAnswer = z.infer<typeof recoverSchema>;

export const formSchema = z.object({
  eventID: id,
  acceptsRegistrations: s,
  reason: s,
  capacity: s,
  remaining: s,
});
export type RegistrationForm = z.infer<typeof formSchema>;

/** The envelope (spec §1.2): count, optional total (paginated=1), data. */
export function envelopeOf<T extends z.ZodType>(item: T) {
  return z.object({ count: z.string(), total: z.string().optional(), data: z.array(item) });
}
