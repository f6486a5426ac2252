// Events: the public shape of event.get and the items of company.event.find.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

/** One item of company.event.find (public list shape plus companyID, timezone, language). */
export const eventListItemWire = z.object({
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
export type EventListItem = z.infer<typeof eventListItemWire>;

/**
 * event.get: the public shape of a visible public event, or the gate shape of a private one (eventID,
 * companyID, name, nickname, cover, background, timezone, language, public, visible; the rest '').
 */
export const eventWire = z.object({
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
export type PodiumEvent = z.infer<typeof eventWire>;
