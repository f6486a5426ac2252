// Events: the record of event.get and company.event.bind, and the items of company.event.find.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';

/** One item of company.event.find: the public list shape of spec §2.2 plus companyID, timezone, language. */
export const eventListItemWire = z.object({
  eventID: id,
  ...strings(
    'companyID',
    'name',
    'nickname',
    'email',
    'description',
    'cover',
    'dateBegin',
    'dateEnd',
    'latitude',
    'longitude',
    'spot',
    'address',
    'city',
    'state',
    'fugleman',
    'ticketURL',
    'socialA',
    'socialC',
    'visible',
    'public',
    'automaticEnrollment',
    'sandbox',
  ),
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
  ...strings(
    'emailReplyTo',
    'description',
    'background',
    'cover',
    'coverVideo',
    'welcomeOverlay',
    'activityLayout',
    'fontFamily',
    'page',
    'contentPage',
    'ownerID',
    'creatorID',
    'dateCreated',
    'dateBegin',
    'dateEnd',
    'enrollmentBegin',
    'enrollmentEnd',
    'accessEnd',
  ),
  /** Derived from dateBegin in the event's time zone ('' while the dates are not set). */
  quarter: s,
  ...strings('eventDays', 'month', 'capacity', 'invites', 'guestsForMember', 'keywords'),
  /** IANA name. */
  timezone: s,
  ...strings('currency', 'latitude', 'longitude', 'spot', 'placeID', 'address', 'city', 'state'),
  /** The organization's name. */
  fugleman: s,
  ...strings(
    'ebEventID',
    'ticketURL',
    'language',
    'contentLanguage',
    'googleAnalytics',
    'googleTagManager',
    'socialAPixel',
    'socialBPixel',
    'intercomTag',
    'website',
    'faq',
    'agreement',
    'socialA',
    'socialD',
    'socialC',
    'rss',
  ),
  /**
   * The custom domain: for the event's admins the one asked for (event.edit key=cname), for everyone
   * else the one served, which is the asked one only once its DNS check passed (cnameState verified).
   */
  cname: s,
  /** Admins of the event only ('' for everyone else): '' none asked, checking, verified, missing, wrong, error. */
  cnameState: s,
  /**
   * Admins of the event only: the domain's last check as JSON, {status, name, found, expected, reason}:
   * the TXT record to publish at `name` is `expected` ('' before a domain is asked for).
   */
  cnameDNS: s,
  ...strings('archived', 'visible', 'published', 'public', 'presential'),
  /** Admins of the event only ('' for everyone else). */
  budget: s,
  automaticEnrollment: s,
  /** Admins of the event only ('' for everyone else). */
  sandbox: s,
  ...strings(
    'vlTemplate',
    'vlControlRoomLayout',
    'vlBackgroundIdle',
    'vlJoinBeforeStarts',
    'vlJoinAfterEnds',
    'vlNetworkingRouletteTimer',
    'meetingStartTime',
    'meetingEndTime',
    'meetingDurationTime',
  ),
  /** Admins of the event only ('' for everyone else). */
  accessCode: s,
  wireless: s,
  templateID: s,
  isTemplate: s,
  /** Admins of the event only ('' for everyone else). */
  siblingID: s,
  /** Admins of the event only ('' for everyone else): labels one attendee may print (0: no limit). */
  printLimit: s,
  /** Admins of the event only ('' for everyone else): what event.sendSMS says ('' = the name and the link). */
  smsText: s,
  ...strings('hasTag', 'hasFeedback', 'hasPhoto', 'hasMaterial', 'hasSponsor'),
  /** The reader (or the personID asked for): their level in the system, the company and the event. */
  systemLevel: s,
  ...strings('companyLevel', 'personID', 'role', 'company', 'level'),
  /** The reader's registration: −1 none, 0 waiting, 1 approved (spec §3). */
  approved: s,
  ...strings('templateName', 'templateColor', 'isSponsor', 'placeName', 'happeningNow', 'happeningAfter'),
  /** Approved attendees. */
  peopleCount: s,
});
export type PodiumEvent = z.infer<typeof eventWire>;

/** event.preview: a link that shows the event's site before it is published (docs/api/site.md). */
export const eventPreviewWire = z.object({
  eventID: id,
  /** A grant as event.checkAccessCode's is shaped: public reads take it as `grant`, hidden or private. */
  grant: z.string(),
  /** Unix seconds when it stops working (an hour after it was made). */
  expires: z.string(),
  /** The event's site on the platform's own address (SITE_URL), opened for whoever follows it. */
  url: z.string(),
});
