import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ChangeRow } from '../change/log.ts';
import { CLOSE, type StreamView, type ViewAnswer } from '../../stream/hub.ts';
import type { PushChannel } from '../../../shared/wire/push.ts';
import { pushMessageWire } from '../../../shared/wire/push.ts';
import { channelOf } from './channels.ts';

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
  /** The subscriber's own person when they hear chat/send (issue 16 sends it; nothing yet). */
  person?: number,
): StreamView {
  return {
    name: viewName(eventID, audience, channels, person),
    async message(change: ChangeRow): Promise<ViewAnswer> {
      if (change.eventID !== eventID) return undefined;
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
