// Entry: <podium-registration> alone (public/widgets/podium-registration.js).
export { PodiumRegistration } from './components/registration/registration.ts';
