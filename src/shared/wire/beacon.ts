import { z } from 'zod';
import { id, s } from './values.ts';

// Beacons (docs/api/beacons.md): a company's physical beacons, bound to events, with the actions
// attendees near them are shown and the log of who met which action.

/** A company's beacon (beacon.create, beacon.find; Podium extensions). */
export const beaconWire = z.object({
  beaconID: id,
  companyID: id,
  /** iBeacon proximity UUID, lower case with dashes. */
  uuid: z.string(),
  /** 0–65535. */
  major: z.string(),
  /** 0–65535. */
  minor: z.string(),
  name: s,
  date: z.string(),
});
export type Beacon = z.infer<typeof beaconWire>;

/** A beacon bound to an event (spec §2.6 Beacon event), with its beacon's identity and its actions' count. */
export const beaconEventWire = z.object({
  beaconEventID: id,
  eventID: id,
  beaconID: id,
  /** What the beacon marks: entrance, room, booth, stand, other. */
  type: z.string(),
  /** Proximity at which its actions show: immediate, near, far. */
  range: z.string(),
  /** The organizer's note (where it is placed). */
  extra: s,
  uuid: z.string(),
  major: z.string(),
  minor: z.string(),
  name: s,
  /** Actions attached (active ones for attendees). */
  actions: z.string(),
  date: z.string(),
});
export type BeaconEvent = z.infer<typeof beaconEventWire>;

/** What attendees near a bound beacon are shown (not shown in the spec: Podium's design). */
export const beaconActionWire = z.object({
  beaconActionID: id,
  beaconEventID: id,
  eventID: id,
  beaconID: id,
  /** `message` (title and text) or `url` (title and a link to open). */
  type: z.string(),
  title: z.string(),
  message: s,
  url: s,
  /** '1' shown to attendees, '0' paused. */
  active: z.string(),
  date: z.string(),
});
export type BeaconAction = z.infer<typeof beaconActionWire>;

/** A person met a beacon action (beacon.log.bind). */
export const beaconLogWire = z.object({
  beaconLogID: id,
  eventID: id,
  beaconEventID: id,
  beaconActionID: id,
  personID: id,
  date: z.string(),
  /** '0' when the same person met the same action within the last minute: that meeting is answered, none is added. */
  created: z.string(),
});
export type BeaconLog = z.infer<typeof beaconLogWire>;

/** beacon.log.count: meetings of one beacon event's actions, or of all the event's. */
export const beaconCountWire = z.object({
  eventID: id,
  /** '' for the whole event. */
  beaconEventID: s,
  /** Meetings logged. */
  count: z.string(),
  /** Different people who met an action. */
  people: z.string(),
});
export type BeaconCount = z.infer<typeof beaconCountWire>;
