import { z } from 'zod';
import { id } from './values.ts';

/** The push channels of spec §6, in its order. */
export const PUSH_CHANNELS = [
  'activity/create',
  'activity/edit',
  'activity/remove',
  'event/edit',
  'event/remove',
  'chat/send',
] as const;
export type PushChannel = (typeof PUSH_CHANNELS)[number];

/**
 * A message of push.subscribe (docs/push.md): the event, and the integer the spec's channel carries —
 * activityID on activity/*, personID on chat/send (who sent the message, with its chatID); event/* carry
 * the eventID alone. Strings, as every answer of the API.
 */
export const pushMessageWire = z.object({
  eventID: id,
  activityID: id.optional(),
  personID: id.optional(),
  chatID: id.optional(),
});
export type PushMessage = z.infer<typeof pushMessageWire>;
