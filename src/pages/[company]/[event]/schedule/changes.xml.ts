// GET /{company}/{event}/schedule/changes.xml — the program's changelog as an Atom feed (feed readers,
// chat bots). On the event's own domain: /schedule/changes.xml.
import type { APIRoute } from 'astro';
import { changesAtomResponse } from '../../../../site/changes.ts';

export const GET: APIRoute = ({ params, locals }) => changesAtomResponse(locals.podium, params.company!, params.event!);
