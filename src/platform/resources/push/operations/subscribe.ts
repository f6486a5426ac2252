import { z } from 'zod';
import { defineOperation, q, qOpt } from '../../../kernel/table.ts';
import { id, LAST_EVENT_ID_DOC, lastEventID } from '../../../schemas.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { grantSchema, readableEvent, grantKind } from '../../../auth/grant.ts';
import { pushMessageWire, PUSH_CHANNELS, type PushChannel } from '../../../../shared/wire/push.ts';
import { pushView, type Audience } from '../view.ts';
import { pushGuard } from '../guard.ts';

const EVENT_CHANNELS = PUSH_CHANNELS.filter((c) => c !== 'chat/send');
const known = new Set<string>(PUSH_CHANNELS);

/** `channels`: a comma list of the spec's names; the first unknown one is named in the 400. */
const channelList = z
  .string()
  .max(200, 'must be at most 200 characters')
  .transform((v, ctx) => {
    const list = v
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const unknown = list.find((c) => !known.has(c));
    if (unknown !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `names an unknown channel ${JSON.stringify(unknown.slice(0, 40))} (known: ${PUSH_CHANNELS.join(', ')})`,
      });
      return z.NEVER;
    }
    return list as PushChannel[];
  });

/**
 * Spec §6, whose transport the spec leaves open: the push channels of one event as Server-Sent Events
 * (docs/push.md). Who may hear an event: anyone who may read it publicly (visible and public, or private
 * with the grant of its access code), or a token of someone related to it. A missing event and one the
 * caller may not read are the same 404, answered before any stream opens.
 */
export default defineOperation({
  name: 'push.subscribe',
  summary:
    'Streams the push channels of an event (text/event-stream, spec §6): one message per change, event: <channel>, data: {"eventID","activityID"}; resumes after Last-Event-ID.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    channels: qOpt(
      channelList,
      `comma list of ${PUSH_CHANNELS.join(', ')} (default: every channel the caller may hear; chat/send needs a token)`,
    ),
    grant: qOpt(grantSchema, 'the grant of event.checkAccessCode, to hear a private event'),
    lastEventID: qOpt(lastEventID, LAST_EVENT_ID_DOC),
  },
  auth: { kind: 'public' },
  extension: true,
  cors: true,
  writes: false,
  answer: pushMessageWire,
  async stream(ctx, p) {
    let audience: Audience;
    try {
      const { event, access } = await readableEvent(ctx, p.eventID, p.grant, { preview: false });
      // A valid grant keeps its holder hearing an open event that later turns private.
      const granted =
        p.grant !== undefined && (await grantKind(ctx.db, p.grant, p.eventID, ctx.now, event.accessCode)) === 'access';
      audience = access?.related ? 'member' : granted ? 'grant' : event.public === 1 ? 'public' : 'grant';
    } catch (err) {
      // Private without its grant reads as missing: a stream tells nothing of an event it may not hear.
      if (err instanceof ApiError && err.status === 403) throw notFound('event');
      throw err;
    }
    const asked = p.channels?.length ? p.channels : ctx.caller ? PUSH_CHANNELS : EVENT_CHANNELS;
    if (!ctx.caller && asked.includes('chat/send'))
      throw new ApiError(403, 'chat/send is heard only with the token of the person it is for');
    // chat/send is a person's own: their stream shares its view with nobody else's.
    const person = asked.includes('chat/send') ? ctx.caller!.personID : undefined;
    // A member's stream, or one hearing chat/send, rests on its token; a grant's on the grant.
    const byToken = audience === 'member' || person !== undefined ? ctx.caller : undefined;
    const guard = pushGuard(ctx.db, p.eventID, audience, p.grant, byToken);
    return { ...pushView(ctx.db, p.eventID, audience, new Set(asked), person), guard };
  },
});
