/**
 * Spec §3: the `approved` state of a registration in an event, and of an enrollment in an activity.
 * -1 not registered (no row: never registered, or dismissed), 0 registered and not approved (over the
 * capacity, or waiting for an admin's approval: the waiting list), 1 registered and approved.
 * Podium stores no "refused" state: refusing someone removes the registration (-1).
 */
export const APPROVAL = { NOT_REGISTERED: -1, NOT_APPROVED: 0, APPROVED: 1 } as const;

/**
 * The state the `approved` and `denied` selections of every .find select (event.person.find,
 * activity.person.find, company.event.find, activity.find), one meaning everywhere: `denied` is
 * "registered and not approved", the only not-approved state a listed registration can be in.
 */
export const SELECTED_APPROVAL = { approved: APPROVAL.APPROVED, denied: APPROVAL.NOT_APPROVED } as const;
