// What every entry exports besides its element, so podium.js and each one-widget loader offer it alike:
// the base class, the API error, the event classes and the access gates' grants.
export { PodiumElement } from './internal/podium-element.ts';
export { PodiumApiError } from './internal/api.ts';
export * from './events/events.ts';
export { $grants, setGrant } from './stores/grant.ts';
