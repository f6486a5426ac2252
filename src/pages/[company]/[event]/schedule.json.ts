// GET /{company}/{event}/schedule.json — the whole program in frab's JSON format, for conference apps.
// On the event's own domain: /schedule.json.
import type { APIRoute } from 'astro';
import { frabResponse } from '../../../site/exports.ts';

export const GET: APIRoute = ({ params, locals }) =>
  frabResponse(locals.podium, params.company!, params.event!, 'json');
