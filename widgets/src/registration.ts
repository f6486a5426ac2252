// Entry: <podium-registration> (public/widgets/podium-registration.js, and podium.js with the other widgets).
export { PodiumRegistration } from './components/registration/registration.ts';
export * from './index.ts';
