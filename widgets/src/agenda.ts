// Entry: <podium-agenda> alone (public/widgets/podium-agenda.js).
export { PodiumAgenda } from './components/agenda/agenda.ts';
