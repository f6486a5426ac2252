// GET /{company}/{event}/schedule.xml — the whole program as frab/pentabarf XML, for conference apps
// (Giggity, ConfClerk, EventFahrplan). On the event's own domain: /schedule.xml.
import type { APIRoute } from 'astro';
import { frabResponse } from '../../../site/exports.ts';

export const GET: APIRoute = ({ params, locals }) => frabResponse(locals.podium, params.company!, params.event!, 'xml');
