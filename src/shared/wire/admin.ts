// The smaller answers of the organizer's and the operator's tools: a new company, a company's tool
// switches, billing balances, an event's failed access codes and its gate challenge, and the
// dispatcher's own ping. Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';
import { companyWire } from './company.ts';

/** company.create: the company as its admins see it, and the one-time token that finishes its set-up. */
export const newCompanyWire = companyWire.extend({ onboardingToken: s });

/** The tool switches of spec §4.3 (company.tool.get/edit), each 0 or 1. */
export const TOOL_SWITCHES = [
  'feedback', 'presence', 'material', 'question', 'comment', 'quiz', 'speaker', 'networking',
  'pushNotification', 'shareOnlyEventDay', 'searchBar', 'socialALogin', 'socialBLogin',
  'confirmationEmail', 'offlinePush', 'meeting', 'localTimezone', 'aboutUs', 'autoApproveQuestion',
  'autoApproveComment', 'autoApproveSocialFlow', 'photo', 'quickMenu', 'multipleEvents', 'sponsors',
  'stream', 'feed', 'schedule', 'socialBLegacy', 'hideFullRooms',
] as const; // prettier-ignore

export const toolsWire = z.object({ id: s, companyID: id, ...strings(...TOOL_SWITCHES) });

/** company.tool.available: a switch, and whether the company may change it. */
export const toolAvailableWire = z.object({ tool: s, editable: s });

/** billing.find: one product balance of a company (eventID 0) or of one event. */
export const billingWire = z.object({
  billingID: id,
  ...strings('companyID', 'eventID', 'product', 'amount', 'sent', 'remaining'),
});

/** event.accessCode.find: a wrong access code tried (the caller's network only). */
export const accessCodeFailureWire = z.object({ eventID: id, time: s, address: s, challenged: s });

/** event.accessCode.challenge: an ALTCHA challenge to solve before the next try. */
export const accessChallengeWire = z.object({ eventID: id, challenge: s, expires: s });

/** api.ping: the server's clock. */
export const pingWire = z.object({ pong: s, time: s });
