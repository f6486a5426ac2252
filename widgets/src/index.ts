// Entry: every Podium widget (public/widgets/podium.js). Loading it twice, or together with a
// one-widget entry, is safe: a tag already defined is left alone and the stores are page-wide.
export { PodiumRegistration } from './components/registration/registration.ts';
export { PodiumAgenda } from './components/agenda/agenda.ts';
export { PodiumAccessGate } from './components/access-gate/access-gate.ts';
export { PodiumElement } from './internal/podium-element.ts';
export { PodiumApiError } from './internal/api.ts';
export * from './events/events.ts';
export { $grants, setGrant } from './stores/grant.ts';
