import { defineOperation, qOpt } from '../../../kernel/table.ts';
import { changeMessageWire } from '../../../../shared/wire/change.ts';
import { LAST_EVENT_ID_DOC, lastEventID } from '../../../schemas.ts';
import { publicChangeView } from '../view.ts';

/**
 * Podium extension (issue 11): committed changes as Server-Sent Events, for whoever keeps copies of
 * public answers (the site's page cache, a CDN purger) and wants to drop them when, and only when,
 * something changed. Public; each message names a company, and the event when it is open to anyone.
 */
export default defineOperation({
  name: 'change.subscribe',
  summary:
    'Streams committed changes (text/event-stream): a "change" message naming the company and, when the event is public and visible, the event; resumes after Last-Event-ID.',
  methods: ['GET'],
  params: {
    lastEventID: qOpt(lastEventID, LAST_EVENT_ID_DOC),
  },
  auth: { kind: 'public' },
  extension: true,
  cors: true,
  writes: false,
  answer: changeMessageWire,
  stream: (ctx) => publicChangeView(ctx.db),
});
