// Events: the record of event.get and company.event.bind, and the items of company.event.find.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

/** One item of company.event.find: the public list shape of spec §2.2 plus companyID, timezone, language. */
export const eventListItemWire = z.object({
  eventID: id,
  companyID: s,
  name: s,
  nickname: s,
  email: s,
  description: s,
  cover: s,
  dateBegin: s,
  dateEnd: s,
  latitude: s,
  longitude: s,
  spot: s,
  address: s,
  city: s,
  state: s,
  fugleman: s,
  ticketURL: s,
  socialA: s,
  socialC: s,
  visible: s,
  public: s,
  automaticEnrollment: s,
  sandbox: s,
  /** The reader's registration: −1 none, 0 waiting, 1 approved (spec §3). */
  approved: s,
  timezone: s,
  language: s,
});
export type EventListItem = z.infer<typeof eventListItemWire>;

/**
 * The event record of spec §2.2 (event.get, company.event.bind). Two shapes leave fields out, which
 * then read as '': the public one (anyone but the event's admins) has no admin-only fields, and the
 * gate of a private event not unlocked has only eventID, companyID, name, nickname, cover, background,
 * timezone, language, public and visible.
 */
export const eventWire = z.object({
  eventID: id,
  companyID: s,
  name: s,
  nickname: s,
  /** The organization's e-mail (emailAddress). */
  email: s,
  emailAddress: s,
  emailName: s,
  /** Admins of the event only ('' for everyone else). */
  emailDNS: s,
  emailReplyTo: s,
  description: s,
  background: s,
  cover: s,
  coverVideo: s,
  welcomeOverlay: s,
  activityLayout: s,
  fontFamily: s,
  page: s,
  contentPage: s,
  ownerID: s,
  creatorID: s,
  dateCreated: s,
  dateBegin: s,
  dateEnd: s,
  enrollmentBegin: s,
  enrollmentEnd: s,
  accessEnd: s,
  /** Derived from dateBegin in the event's time zone ('' while the dates are not set). */
  quarter: s,
  eventDays: s,
  month: s,
  capacity: s,
  invites: s,
  guestsForMember: s,
  keywords: s,
  /** IANA name. */
  timezone: s,
  currency: s,
  latitude: s,
  longitude: s,
  spot: s,
  placeID: s,
  address: s,
  city: s,
  state: s,
  /** The organization's name. */
  fugleman: s,
  ebEventID: s,
  ticketURL: s,
  language: s,
  contentLanguage: s,
  googleAnalytics: s,
  googleTagManager: s,
  socialAPixel: s,
  socialBPixel: s,
  intercomTag: s,
  website: s,
  faq: s,
  agreement: s,
  socialA: s,
  socialD: s,
  socialC: s,
  rss: s,
  cname: s,
  archived: s,
  visible: s,
  published: s,
  public: s,
  presential: s,
  /** Admins of the event only ('' for everyone else). */
  budget: s,
  automaticEnrollment: s,
  /** Admins of the event only ('' for everyone else). */
  sandbox: s,
  vlTemplate: s,
  vlControlRoomLayout: s,
  vlBackgroundIdle: s,
  vlJoinBeforeStarts: s,
  vlJoinAfterEnds: s,
  vlNetworkingRouletteTimer: s,
  meetingStartTime: s,
  meetingEndTime: s,
  meetingDurationTime: s,
  /** Admins of the event only ('' for everyone else). */
  accessCode: s,
  wireless: s,
  templateID: s,
  isTemplate: s,
  /** Admins of the event only ('' for everyone else). */
  siblingID: s,
  /** Admins of the event only ('' for everyone else): labels one attendee may print (0: no limit). */
  printLimit: s,
  hasTag: s,
  hasFeedback: s,
  hasPhoto: s,
  hasMaterial: s,
  hasSponsor: s,
  /** The reader (or the personID asked for): their level in the system, the company and the event. */
  systemLevel: s,
  companyLevel: s,
  personID: s,
  role: s,
  company: s,
  level: s,
  /** The reader's registration: −1 none, 0 waiting, 1 approved (spec §3). */
  approved: s,
  templateName: s,
  templateColor: s,
  isSponsor: s,
  placeName: s,
  happeningNow: s,
  happeningAfter: s,
  /** Approved attendees. */
  peopleCount: s,
});
export type PodiumEvent = z.infer<typeof eventWire>;
