import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ChangeRow } from '../change/log.ts';
import { CLOSE, type StreamView, type ViewAnswer } from '../../stream/hub.ts';
import type { PushChannel } from '../../../shared/wire/push.ts';
import { pushMessageWire } from '../../../shared/wire/push.ts';
import { channelOf } from './channels.ts';
import { chatParties } from '../chat/repository.ts';

// What the subscribers of one event hear (push.subscribe): one view per event, audience and set of
// channels, shared by every stream that asks the same (the hub computes it once per change). An
// audience's right to hear is checked when the stream opens and again at every change of the event
// itself: a stream whose event is no longer theirs to hear is closed (the client reconnects and is
// refused), so nothing about an event made private or hidden reaches those who were only let in
// because it was open.

/**
 * Why a subscriber may hear the event: `public` (it is visible and public), `grant` (a private event
 * unlocked by its access code: it must stay visible), `member` (a token of someone related to it).
 */
export type Audience = 'public' | 'grant' | 'member';

/** Changes of these kinds may change who may hear the event (visible, public, isTemplate, removal). */
const EVENT_KINDS = new Set(['event', 'company.event']);

/** Whether `audience` may still hear the event as it is now in the store. */
async function mayHear(db: Kysely<DB>, eventID: number, audience: Audience): Promise<boolean> {
  if (audience === 'member') return true;
  const row = await db
    .selectFrom('event')
    .select(['visible', 'public', 'isTemplate'])
    .where('eventID', '=', eventID)
    .executeTakeFirst();
  if (!row || row.visible !== 1 || row.isTemplate === 1) return false;
  return audience === 'grant' || row.public === 1;
}

/** The view name: the same event, audience and channels (and person, for chat/send) share one view. */
const viewName = (eventID: number, audience: Audience, channels: ReadonlySet<PushChannel>, person?: number) =>
  `push:${eventID}:${audience}:${[...channels].sort().join(',')}${person === undefined ? '' : `:${person}`}`;

export function pushView(
  db: Kysely<DB>,
  eventID: number,
  audience: Audience,
  channels: ReadonlySet<PushChannel>,
  /** The subscriber's own person when they hear chat/send: the messages sent to them. */
  person?: number,
): StreamView {
  return {
    name: viewName(eventID, audience, channels, person),
    async message(change: ChangeRow): Promise<ViewAnswer> {
      if (change.eventID !== eventID) return undefined;
      if (change.operation === 'chat.create') {
        if (person === undefined || !channels.has('chat/send')) return undefined;
        const chat = await chatSendOf(db, change);
        if (!chat || chat.receiverID !== person || chat.eventID !== eventID) return undefined;
        return message(change, {
          channel: 'chat/send',
          data: { eventID: String(eventID), personID: String(chat.senderID), chatID: String(change.objectID) },
        });
      }
      const m = channelOf(change);
      if (EVENT_KINDS.has(change.kind) && !(await mayHear(db, eventID, audience))) {
        // The removal of an event they could hear is theirs to know; then the stream ends.
        return m?.channel === 'event/remove' && channels.has('event/remove') ? message(change, m) : CLOSE;
      }
      if (!m || !channels.has(m.channel)) return undefined;
      return message(change, m);
    },
  };
}

const message = (change: ChangeRow, m: NonNullable<ReturnType<typeof channelOf>>) => ({
  id: change.changeID,
  event: m.channel,
  data: pushMessageWire.parse(m.data),
});

type Parties = Awaited<ReturnType<typeof chatParties>>;
/** The parties of the newest chat.create changes, per store: every listener's view of one change reads the message once. */
const recentChats = new WeakMap<Kysely<DB>, Map<number, Promise<Parties>>>();
const RECENT_CHATS = 256;

/** Who sent a chat.create change's message and to whom (its object is the new message). */
function chatSendOf(db: Kysely<DB>, change: ChangeRow): Promise<Parties> {
  if (change.objectID === null) return Promise.resolve(undefined);
  let recent = recentChats.get(db);
  if (!recent) recentChats.set(db, (recent = new Map()));
  let read = recent.get(change.changeID);
  if (!read) {
    read = chatParties(db, change.objectID).catch(() => undefined);
    recent.set(change.changeID, read);
    if (recent.size > RECENT_CHATS) recent.delete(recent.keys().next().value!);
  }
  return read;
}
