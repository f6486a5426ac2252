// Entry: <podium-access-gate> (public/widgets/podium-access-gate.js, and podium.js with the other widgets).
export { PodiumAccessGate } from './components/access-gate/access-gate.ts';
export * from './index.ts';
