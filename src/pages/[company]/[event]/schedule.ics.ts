// GET /{company}/{event}/schedule.ics — the schedule as an iCalendar file: as filtered by the query
// (day, room, tag, q: the schedule page's filters), or the sessions in ids=1,2,3 (the favourites).
import type { APIRoute } from 'astro';
import { icsResponse } from '../../../site/ical.ts';

export const GET: APIRoute = ({ params, locals, url }) =>
  icsResponse(locals.podium, params.company!, params.event!, url.searchParams);
