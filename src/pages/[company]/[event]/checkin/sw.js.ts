// GET /{company}/{event}/checkin/sw.js — the check-in page's service worker (src/site/checkin-sw.js,
// docs/site.md "Check-in"): it keeps the page and its files so a reload without a network still opens
// the scanner. Service-Worker-Allowed lets it take the page's own path as its scope (a worker at
// …/checkin/sw.js could otherwise only control …/checkin/…); never cached by HTTP, so a deploy's new
// worker is seen at the next load.
import type { APIRoute } from 'astro';
import { checkinEvent, checkinPath } from '../../../../site/checkin.ts';
import { workerResponse } from '../../../../site/checkin-worker.ts';

export const GET: APIRoute = async ({ params, locals }) => {
  const ev = await checkinEvent(locals.podium, params.company!, params.event!);
  if (!ev) return new Response('not found', { status: 404, headers: { 'cache-control': 'no-store' } });
  return workerResponse(checkinPath(ev));
};
