// Entry: <podium-agenda> (public/widgets/podium-agenda.js, and podium.js with the other widgets).
export { PodiumAgenda } from './components/agenda/agenda.ts';
export * from './index.ts';
