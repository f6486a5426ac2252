// Entry: <podium-access-gate> alone (public/widgets/podium-access-gate.js).
export { PodiumAccessGate } from './components/access-gate/access-gate.ts';
