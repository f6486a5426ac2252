// GET /{company}/{event}/schedule/{activityID}.ics — one session as an iCalendar file.
import type { APIRoute } from 'astro';
import { icsResponse } from '../../../../site/ical.ts';

export const GET: APIRoute = ({ params, locals, url }) => {
  const id = /^\d{1,15}$/.test(params.activity ?? '') ? Number(params.activity) : 0;
  if (!id)
    return new Response('404 activity not found', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  return icsResponse(locals.podium, params.company!, params.event!, url.searchParams, id);
};
