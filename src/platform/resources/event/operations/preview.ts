import { defineOperation, LEVEL, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { conflict, notFound } from '../../../errors.ts';
import { issuePreview, PREVIEW_TTL_SECONDS } from '../../../auth/grant.ts';
import { siteUrlOf } from '../../../config.ts';
import { eventPreviewWire } from '../../../../shared/wire/event.ts';
import { eventAddressOf } from '../repository.ts';

/**
 * Podium extension: a link for the event's admins to see its site as the public will see it before they
 * publish it — while it is hidden (visible=0, as every new event is) or behind its access code. Whoever
 * opens the link sees it for an hour (PREVIEW_TTL_SECONDS), in that browser; nobody can register from it
 * while the event is hidden. The grant is the shape of event.checkAccessCode's, so public reads take it
 * as their `grant`. docs/api/site.md "Preview".
 */
export default defineOperation({
  name: 'event.preview',
  summary:
    "Gives a link to the event's site that shows it, even while hidden (visible=0) or private, to whoever opens it within an hour.",
  methods: ['GET'],
  params: { eventID: q(id, 'the event') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: false,
  answer: eventPreviewWire,
  async handler(ctx, p) {
    const event = await eventAddressOf(ctx.db, p.eventID);
    if (!event) throw notFound('event');
    if (event.isTemplate === 1) throw conflict('a template has no site: preview an event made from it');
    const grant = await issuePreview(ctx.db, event.eventID, ctx.now);
    const site = siteUrlOf(ctx.config).replace(/\/+$/, '');
    const path = `/${encodeURIComponent(event.namespace)}/${encodeURIComponent(event.nickname)}/preview`;
    return [
      {
        eventID: String(event.eventID),
        grant,
        expires: String(ctx.now + PREVIEW_TTL_SECONDS),
        url: `${site}${path}?grant=${encodeURIComponent(grant)}`,
      },
    ];
  },
});
