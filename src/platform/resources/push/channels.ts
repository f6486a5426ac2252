import { ACTIVITY_PARTS, type ChangeRow } from '../change/log.ts';
import type { PushChannel, PushMessage } from '../../../shared/wire/push.ts';

// Which spec §6 channel a logged change is heard on, and its payload. The channels "correspond to the
// create, edit and remove operations of their module": a copy creates, every other write of the
// activity module itself (edit, delay, …) edits — always, so a page that follows activity/edit stays
// current; `activity.edit push=1` is then one more edit on it. A speaker, sponsor or tag bound to an
// activity or taken off it edits the activity (ACTIVITY_PARTS: their change's object is the activity).
// Writes of people in an activity (activity.person.*) are nobody else's business and are heard on no channel.
// chat/send is a person's own channel: chat.create is heard there by the message's receiver alone,
// which takes a read of the message (pushView, chatSendOf), not only the change.

const ACTIVITY: Readonly<Record<string, PushChannel>> = {
  'activity.create': 'activity/create',
  'activity.copy': 'activity/create',
  'activity.remove': 'activity/remove',
};
const EVENT: Readonly<Record<string, PushChannel>> = {
  'event.edit': 'event/edit',
  'event.remove': 'event/remove',
};

export interface ChannelMessage {
  readonly channel: PushChannel;
  readonly data: PushMessage;
}

/** The channel and payload of a change of an event, or undefined when no channel tells of it. */
export function channelOf(change: ChangeRow): ChannelMessage | undefined {
  if (change.eventID === null) return undefined;
  const eventID = String(change.eventID);
  if (change.kind === 'activity' || ACTIVITY_PARTS.has(change.kind)) {
    if (change.objectID === null) return undefined;
    const channel = ACTIVITY[change.operation] ?? 'activity/edit';
    return { channel, data: { eventID, activityID: String(change.objectID) } };
  }
  const channel = EVENT[change.operation];
  return channel && { channel, data: { eventID } };
}
